import { sampleReplies } from '../analysis/customer-reply.ts';
import { synthesize } from '../speech/synthesize.ts';
import type { Telephony } from './port.ts';
import { SandboxTelephony } from './sandbox.ts';

/** The carrier chosen by configuration (`TELEPHONY`); only the sandbox exists so far. */
export function createTelephony(config: { TELEPHONY: 'sandbox' }): Telephony {
  switch (config.TELEPHONY) {
    case 'sandbox':
      return createSandboxTelephony();
  }
}

/** The sandbox with the analysis module's sample replies, speaking (when recorded) in the customer's voice. */
export function createSandboxTelephony(): SandboxTelephony {
  return new SandboxTelephony({
    sampleReplies,
    customerVoice: (text, language) => synthesize(text, language, { voice: 'customer' }),
  });
}
