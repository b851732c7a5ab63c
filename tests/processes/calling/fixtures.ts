import type { Script } from '../../../domain/script-types.ts';

/** A loan-renewal script in English and Hindi, with every route the sandbox callees exercise. */
function renewalScript(language: 'en' | 'hi'): Script {
  const say =
    language === 'en'
      ? {
          greet: 'Hello {name}, this is Sunrise Finance. Would you like to renew your loan of {loan_amount} rupees?',
          confirm: 'Thank you. An advisor will call you tomorrow with the details.',
          goodbye: 'Thank you for your time. Goodbye.',
          callback: 'Sure, we will call you back later. Goodbye.',
          transfer: 'Please hold, I am connecting you to an agent.',
          dnd: 'We will not call you again. Goodbye.',
        }
      : {
          greet: 'नमस्ते {name} जी, मैं सनराइज़ फाइनेंस से बोल रही हूँ। क्या आप अपने {loan_amount} रुपये के लोन का नवीनीकरण करना चाहेंगे?',
          confirm: 'धन्यवाद। हमारे सलाहकार कल आपको कॉल करेंगे।',
          goodbye: 'आपके समय के लिए धन्यवाद। नमस्ते।',
          callback: 'ठीक है, हम आपको बाद में कॉल करेंगे। नमस्ते।',
          transfer: 'कृपया रुकिए, मैं आपको एजेंट से जोड़ रही हूँ।',
          dnd: 'हम आपको दोबारा कॉल नहीं करेंगे। नमस्ते।',
        };
  return {
    name: `Loan renewal (${language})`,
    single_call_enabled: true,
    steps: [
      {
        id: 'greet',
        say: say.greet,
        listen: {
          timeout_seconds: 5,
          routes: [
            { intent: 'affirm', dtmf: '1', disposition: 'interested', next: 'confirm' },
            { intent: 'deny', dtmf: '2', disposition: 'not_interested', next: 'goodbye' },
            { intent: 'callback_later', dtmf: '3', disposition: 'callback', next: 'callback' },
            { intent: 'request_human', dtmf: '0', escalate: true, next: 'transfer' },
            { intent: 'stop_calling', disposition: 'dnd', next: 'dnd' },
            { intent: 'wrong_person', disposition: 'not_interested', next: 'goodbye' },
          ],
          no_input: { retries: 1, disposition: 'callback', next: 'goodbye' },
        },
      },
      { id: 'confirm', say: say.confirm, end: true },
      { id: 'goodbye', say: say.goodbye, end: true },
      { id: 'callback', say: say.callback, end: true },
      { id: 'transfer', say: say.transfer, end: true },
      { id: 'dnd', say: say.dnd, end: true },
    ],
  };
}

export const scripts = { en: renewalScript('en'), hi: renewalScript('hi') };

export const variables = { name: 'Asha', phone: '+919876500003', loan_amount: 5000 };
