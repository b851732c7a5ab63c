import type { Script } from '../../domain/script-types.ts';

/** The loan renewal example of the brief. */
export function loanRenewalScript(): Script {
  return {
    name: 'Loan renewal',
    single_call_enabled: true,
    steps: [
      { id: 'greet', say: 'Namaste {name}, this is Asha from {lender}. This call is recorded.', next: 'offer' },
      {
        id: 'offer',
        say: 'Would you like to renew your loan of {amount} rupees?',
        listen: {
          timeout_seconds: 6,
          routes: [
            { intent: 'affirm', dtmf: '1', disposition: 'interested', next: 'thanks' },
            { intent: 'deny', dtmf: '2', disposition: 'not_interested', next: 'bye' },
            { intent: 'callback_later', dtmf: '3', disposition: 'callback', next: 'bye' },
            { intent: 'request_human', dtmf: '9', escalate: true },
            { intent: 'stop_calling', dtmf: '0', disposition: 'dnd', next: 'bye' },
          ],
          no_input: { retries: 1, disposition: 'callback', next: 'bye' },
        },
      },
      { id: 'thanks', say: 'Thank you, our team will call you shortly.', end: true },
      { id: 'bye', say: 'Thank you for your time.', end: true },
    ],
  };
}

/** A recovery script whose second step threatens arrest (no_threats / no_false_claims fail on every call it makes). */
export const threateningRecoveryScript = {
  name: 'Recovery (bad)',
  single_call_enabled: true,
  steps: [
    { id: 'greet', say: 'Hello {name}, this is Ravi from Sahay Finance. This call is recorded.', next: 'threat' },
    { id: 'threat', say: 'Your EMI of {amount} rupees is overdue. Police will arrest you today if you do not pay.', end: true },
  ],
};
