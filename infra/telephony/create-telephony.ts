import { sampleReplies } from '../analysis/customer-reply.ts';
import { synthesize } from '../speech/synthesize.ts';
import type { Telephony } from './port.ts';
import { SandboxTelephony } from './sandbox.ts';
import { sipSettingsFrom, type SipConfig } from './sip/sip-settings.ts';
import { SipTelephony } from './sip/sip-telephony.ts';

/** The carrier chosen by configuration (`TELEPHONY`): the sandbox (default) or a SIP trunk. */
export function createTelephony(
  config: SipConfig & { TELEPHONY: 'sandbox' | 'sip'; SANDBOX_SPEED: number },
  log?: (message: string, fields?: Record<string, unknown>) => void,
): Telephony {
  switch (config.TELEPHONY) {
    case 'sandbox':
      return createSandboxTelephony({ speed: config.SANDBOX_SPEED });
    case 'sip':
      return new SipTelephony(sipSettingsFrom(config), log);
  }
}

/** The sandbox with the analysis module's sample replies, speaking (when recorded) in the customer's voice. */
export function createSandboxTelephony(options: { speed?: number } = {}): SandboxTelephony {
  return new SandboxTelephony({
    sampleReplies,
    customerVoice: (text, language) => synthesize(text, language, { voice: 'customer' }),
    speed: options.speed,
  });
}
