import { sampleReplies } from '../analysis/customer-reply.ts';
import { synthesize } from '../speech/synthesize.ts';
import type { Telephony } from './port.ts';
import { SandboxTelephony } from './sandbox.ts';

/** The carrier chosen by configuration (`TELEPHONY`); only the sandbox exists so far. */
export function createTelephony(config: { TELEPHONY: 'sandbox'; SANDBOX_SPEED: number }): Telephony {
  switch (config.TELEPHONY) {
    case 'sandbox':
      return createSandboxTelephony({ speed: config.SANDBOX_SPEED });
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
