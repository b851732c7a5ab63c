/** A short English loan-renewal call as a transcript array (the API's `transcript` input): a polite agent, a willing customer. */
export const RENEWAL_TRANSCRIPT = [
  { speaker: 'agent', text: 'Good morning, this is Asha from the bank. Your loan is due for renewal.', start_time: 0.4, end_time: 4.2 },
  { speaker: 'customer', text: 'Yes, I want to renew my loan. The service has been very good.', start_time: 4.8, end_time: 8.1, confidence: 0.93 },
  { speaker: 'agent', text: 'Thank you, our team will call you tomorrow.', start_time: 8.6, end_time: 11 },
];
