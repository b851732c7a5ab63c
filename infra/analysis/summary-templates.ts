/**
 * The summary's sentences in each call language: English (also for Hinglish and any other language), Hindi,
 * Marathi, Tamil and Telugu in their own script. Each template takes facts already found in the transcript
 * (organisation, product, amounts, days) in the words the call used, so nothing here invents content.
 */
import type { IntentLabel } from './intent-labels.ts';
import type { ScaleWords } from './entities/entities.ts';

export type SummaryLanguage = 'en' | 'hi' | 'mr' | 'ta' | 'te';

export type NextStep = 'callback' | 'payment' | 'opt_out' | 'fix_record' | 'escalate' | 'renewal' | 'send_details';

export type Tone = 'positive' | 'negative';

export interface OutcomeFacts {
  /** The day or time the customer named for a callback or a payment, as said. */
  when: string | null;
  /** The amount the customer promised (or the amount due), formatted. */
  amount: string | null;
}

export interface SummaryTemplates {
  /** How amounts of a lakh and more are written. */
  scale: ScaleWords;
  /** "<organisation> called <the customer, or the person asked for> about <product> (<facts>)." */
  called(organisation: string | null, person: string | null, product: string | null, facts: readonly string[]): string;
  emi(amount: string): string;
  said(quote: string): string;
  asked(quote: string): string;
  /** Partial: a label added to intent-labels.ts later reads as `otherIntent` until it gets its sentence here. */
  outcome: Partial<Record<IntentLabel, (facts: OutcomeFacts) => string>>;
  noIntent: string;
  otherIntent(label: string): string;
  disposition: Record<string, string>;
  otherDisposition(label: string): string;
  /** Joined to the outcome: "...; the call ended <disposition>". */
  endedAs(disposition: string): string;
  tone: Record<Tone, string>;
  next: Record<NextStep, (facts: OutcomeFacts) => string>;
  /** Joins the outcome and the next step into one sentence. */
  outcomeSentence(outcome: string, next: string | null): string;
  noSpeech: string;
}

const list = (facts: readonly string[]) => (facts.length > 0 ? ` (${facts.join(', ')})` : '');

const en: SummaryTemplates = {
  scale: { lakh: 'lakh', crore: 'crore' },
  called: (organisation, person, product, facts) =>
    `${organisation ?? 'The agent'} called ${person ?? 'the customer'}${product ? ` about the ${product}` : ''}${list(facts)}.`,
  emi: (amount) => `${amount} EMI`,
  said: (quote) => `The customer said: “${quote}”`,
  asked: (quote) => `The customer asked: “${quote}”`,
  outcome: {
    loan_renewal_interest: () => 'The customer wants to renew the loan',
    interested: () => 'The customer is interested in the offer',
    not_interested: () => 'The customer declined the offer',
    payment_promise: ({ amount, when }) => `The customer promised to pay${amount ? ` ${amount}` : ''}${when ? ` (${when})` : ''}`,
    payment_query: () => 'The customer asked about the payment due',
    policy_query: () => 'The customer asked about the policy',
    complaint: () => 'The customer made a complaint',
    callback_request: ({ when }) => `The customer asked to be called back${when ? ` (${when})` : ' later'}`,
    human_agent_request: () => 'The customer asked to speak to a person',
    dnd_request: () => 'The customer asked not to be called again',
    wrong_number: () => 'Wrong number: the call did not reach the intended customer',
  },
  noIntent: 'The customer made no clear request',
  otherIntent: (label) => `The customer's intent: ${label}`,
  disposition: {
    interested: 'with the customer interested',
    not_interested: 'with the customer not interested',
    callback: 'with a callback to arrange',
    not_reachable: 'without reaching the customer',
    dnd: 'with the number marked do-not-call',
    escalated: 'escalated to a human agent',
  },
  otherDisposition: (label) => `as ${label}`,
  endedAs: (disposition) => `; the call ended ${disposition}`,
  tone: { positive: '; the customer sounded positive', negative: '; the customer sounded unhappy' },
  next: {
    callback: ({ when }) => `call back ${when ?? 'at a time to agree'}`,
    payment: ({ when }) => `check the payment${when ? ` (${when})` : ''}`,
    opt_out: () => 'remove the number from the calling list (opt-out)',
    fix_record: () => 'correct the contact record',
    escalate: () => 'escalate to a supervisor or human agent',
    renewal: () => 'process the renewal',
    send_details: () => 'send the customer the details',
  },
  outcomeSentence: (outcome, next) => `${outcome}${next ? `; next step: ${next}` : ''}.`,
  noSpeech: 'No speech was transcribed.',
};

const hi: SummaryTemplates = {
  scale: { lakh: 'लाख', crore: 'करोड़' },
  called: (organisation, person, product, facts) =>
    `${organisation ?? 'एजेंट'} ने ${person ?? 'ग्राहक'} को${product ? ` ${product} के बारे में` : ''} कॉल किया${list(facts)}।`,
  emi: (amount) => `${amount} की किस्त`,
  said: (quote) => `ग्राहक ने कहा: “${quote}”`,
  asked: (quote) => `ग्राहक ने पूछा: “${quote}”`,
  outcome: {
    loan_renewal_interest: () => 'ग्राहक लोन रिन्यू करवाना चाहते हैं',
    interested: () => 'ग्राहक ऑफ़र में रुचि रखते हैं',
    not_interested: () => 'ग्राहक ने ऑफ़र मना कर दिया',
    payment_promise: ({ amount, when }) => `ग्राहक ने${amount ? ` ${amount}` : ''} भुगतान का वादा किया${when ? ` (${when})` : ''}`,
    payment_query: () => 'ग्राहक ने बकाया भुगतान के बारे में पूछा',
    policy_query: () => 'ग्राहक ने पॉलिसी के बारे में पूछा',
    complaint: () => 'ग्राहक ने शिकायत की',
    callback_request: ({ when }) => `ग्राहक ने दोबारा कॉल करने को कहा${when ? ` (${when})` : ''}`,
    human_agent_request: () => 'ग्राहक ने किसी व्यक्ति से बात करने को कहा',
    dnd_request: () => 'ग्राहक ने दोबारा कॉल न करने को कहा',
    wrong_number: () => 'ग़लत नंबर: कॉल सही ग्राहक तक नहीं पहुँची',
  },
  noIntent: 'ग्राहक का कोई स्पष्ट अनुरोध नहीं था',
  otherIntent: (label) => `ग्राहक का उद्देश्य: ${label}`,
  disposition: {
    interested: 'ग्राहक इच्छुक',
    not_interested: 'ग्राहक इच्छुक नहीं',
    callback: 'कॉलबैक तय करना है',
    not_reachable: 'ग्राहक से संपर्क नहीं हुआ',
    dnd: 'नंबर डू-नॉट-कॉल सूची में',
    escalated: 'मानव एजेंट को सौंपी गई',
  },
  otherDisposition: (label) => label,
  endedAs: (disposition) => `; कॉल का नतीजा: ${disposition}`,
  tone: { positive: '; ग्राहक संतुष्ट लगे', negative: '; ग्राहक नाराज़ लगे' },
  next: {
    callback: ({ when }) => `${when ?? 'तय समय पर'} दोबारा कॉल करें`,
    payment: ({ when }) => `भुगतान की पुष्टि करें${when ? ` (${when})` : ''}`,
    opt_out: () => 'नंबर को कॉलिंग सूची से हटाएँ (ऑप्ट-आउट)',
    fix_record: () => 'संपर्क रिकॉर्ड ठीक करें',
    escalate: () => 'मामला वरिष्ठ अधिकारी को सौंपें',
    renewal: () => 'रिन्यूअल की प्रक्रिया शुरू करें',
    send_details: () => 'ग्राहक को पूरी जानकारी भेजें',
  },
  outcomeSentence: (outcome, next) => `${outcome}${next ? `; अगला कदम: ${next}` : ''}।`,
  noSpeech: 'कोई बातचीत ट्रांसक्राइब नहीं हुई।',
};

const mr: SummaryTemplates = {
  scale: { lakh: 'लाख', crore: 'कोटी' },
  called: (organisation, person, product, facts) =>
    `${organisation ?? 'एजंट'}कडून ${person ? `${person} यांना` : 'ग्राहकाला'}${product ? ` ${product} विषयी` : ''} कॉल आला${list(facts)}.`,
  emi: (amount) => `${amount} हप्ता`,
  said: (quote) => `ग्राहक म्हणाले: “${quote}”`,
  asked: (quote) => `ग्राहकांनी विचारले: “${quote}”`,
  outcome: {
    loan_renewal_interest: () => 'ग्राहकांना कर्जाचे नूतनीकरण करायचे आहे',
    interested: () => 'ग्राहकांना ऑफरमध्ये रस आहे',
    not_interested: () => 'ग्राहकांनी ऑफर नाकारली',
    payment_promise: ({ amount, when }) => `ग्राहकांनी${amount ? ` ${amount}` : ''} भरण्याचे आश्वासन दिले${when ? ` (${when})` : ''}`,
    payment_query: () => 'ग्राहकांनी भरायच्या रकमेबद्दल विचारले',
    policy_query: () => 'ग्राहकांनी पॉलिसीबद्दल विचारले',
    complaint: () => 'ग्राहकांनी तक्रार केली',
    callback_request: ({ when }) => `ग्राहकांनी पुन्हा कॉल करायला सांगितले${when ? ` (${when})` : ''}`,
    human_agent_request: () => 'ग्राहकांनी प्रत्यक्ष व्यक्तीशी बोलायचे आहे असे सांगितले',
    dnd_request: () => 'ग्राहकांनी पुन्हा कॉल करू नका असे सांगितले',
    wrong_number: () => 'चुकीचा नंबर: कॉल योग्य ग्राहकापर्यंत पोहोचला नाही',
  },
  noIntent: 'ग्राहकांची कोणतीही स्पष्ट विनंती नव्हती',
  otherIntent: (label) => `ग्राहकांचा उद्देश: ${label}`,
  disposition: {
    interested: 'ग्राहक इच्छुक',
    not_interested: 'ग्राहक इच्छुक नाहीत',
    callback: 'पुन्हा कॉल ठरवायचा आहे',
    not_reachable: 'ग्राहकाशी संपर्क झाला नाही',
    dnd: 'नंबर डू-नॉट-कॉल यादीत',
    escalated: 'मानवी एजंटकडे सोपवला',
  },
  otherDisposition: (label) => label,
  endedAs: (disposition) => `; कॉलचा निकाल: ${disposition}`,
  tone: { positive: '; ग्राहक समाधानी वाटले', negative: '; ग्राहक नाराज वाटले' },
  next: {
    callback: ({ when }) => `${when ?? 'ठरलेल्या वेळी'} पुन्हा कॉल करा`,
    payment: ({ when }) => `भरणा झाला का ते तपासा${when ? ` (${when})` : ''}`,
    opt_out: () => 'नंबर कॉलिंग यादीतून काढा (ऑप्ट-आउट)',
    fix_record: () => 'संपर्क माहिती दुरुस्त करा',
    escalate: () => 'प्रकरण वरिष्ठांकडे सोपवा',
    renewal: () => 'नूतनीकरणाची प्रक्रिया सुरू करा',
    send_details: () => 'ग्राहकांना सविस्तर माहिती पाठवा',
  },
  outcomeSentence: (outcome, next) => `${outcome}${next ? `; पुढील पाऊल: ${next}` : ''}.`,
  noSpeech: 'कोणतेही संभाषण ट्रान्सक्राइब झाले नाही.',
};

const ta: SummaryTemplates = {
  scale: { lakh: 'லட்சம்', crore: 'கோடி' },
  called: (organisation, person, product, facts) =>
    `${organisation ?? 'முகவர்'} வாடிக்கையாளரை${person ? ` (${person})` : ''}${product ? ` ${product} பற்றி` : ''} அழைத்தார்${list(facts)}.`,
  emi: (amount) => `${amount} தவணை`,
  said: (quote) => `வாடிக்கையாளர் சொன்னது: “${quote}”`,
  asked: (quote) => `வாடிக்கையாளர் கேட்டது: “${quote}”`,
  outcome: {
    loan_renewal_interest: () => 'வாடிக்கையாளர் கடனைப் புதுப்பிக்க விரும்புகிறார்',
    interested: () => 'வாடிக்கையாளர் சலுகையில் ஆர்வம் காட்டினார்',
    not_interested: () => 'வாடிக்கையாளர் சலுகையை மறுத்தார்',
    payment_promise: ({ amount, when }) => `வாடிக்கையாளர்${amount ? ` ${amount}` : ''} செலுத்துவதாக உறுதியளித்தார்${when ? ` (${when})` : ''}`,
    payment_query: () => 'வாடிக்கையாளர் செலுத்த வேண்டிய தொகை பற்றி கேட்டார்',
    policy_query: () => 'வாடிக்கையாளர் பாலிசி பற்றி கேட்டார்',
    complaint: () => 'வாடிக்கையாளர் புகார் தெரிவித்தார்',
    callback_request: ({ when }) => `வாடிக்கையாளர் மீண்டும் அழைக்கச் சொன்னார்${when ? ` (${when})` : ''}`,
    human_agent_request: () => 'வாடிக்கையாளர் ஒரு நபரிடம் பேச வேண்டும் என்றார்',
    dnd_request: () => 'வாடிக்கையாளர் மீண்டும் அழைக்க வேண்டாம் என்றார்',
    wrong_number: () => 'தவறான எண்: அழைப்பு சரியான வாடிக்கையாளரை அடையவில்லை',
  },
  noIntent: 'வாடிக்கையாளரிடமிருந்து தெளிவான கோரிக்கை இல்லை',
  otherIntent: (label) => `வாடிக்கையாளரின் நோக்கம்: ${label}`,
  disposition: {
    interested: 'ஆர்வம் உள்ளது',
    not_interested: 'ஆர்வம் இல்லை',
    callback: 'மீண்டும் அழைக்க வேண்டும்',
    not_reachable: 'வாடிக்கையாளரை அடைய முடியவில்லை',
    dnd: 'அழைக்கக் கூடாத எண்',
    escalated: 'மனித முகவரிடம் மாற்றப்பட்டது',
  },
  otherDisposition: (label) => label,
  endedAs: (disposition) => `; அழைப்பின் முடிவு: ${disposition}`,
  tone: { positive: '; வாடிக்கையாளர் திருப்தியாக இருந்தார்', negative: '; வாடிக்கையாளர் அதிருப்தியாக இருந்தார்' },
  next: {
    callback: ({ when }) => `${when ?? 'ஒப்புக்கொண்ட நேரத்தில்'} மீண்டும் அழைக்கவும்`,
    payment: ({ when }) => `பணம் செலுத்தப்பட்டதா எனச் சரிபார்க்கவும்${when ? ` (${when})` : ''}`,
    opt_out: () => 'எண்ணை அழைப்புப் பட்டியலிலிருந்து நீக்கவும் (ஆப்ட்-அவுட்)',
    fix_record: () => 'தொடர்பு விவரங்களைத் திருத்தவும்',
    escalate: () => 'மேலதிகாரியிடம் ஒப்படைக்கவும்',
    renewal: () => 'புதுப்பித்தல் நடைமுறையைத் தொடங்கவும்',
    send_details: () => 'வாடிக்கையாளருக்கு விவரங்களை அனுப்பவும்',
  },
  outcomeSentence: (outcome, next) => `${outcome}${next ? `; அடுத்த படி: ${next}` : ''}.`,
  noSpeech: 'எந்தப் பேச்சும் எழுத்தாக்கப்படவில்லை.',
};

const te: SummaryTemplates = {
  scale: { lakh: 'లక్షలు', crore: 'కోటి' },
  called: (organisation, person, product, facts) =>
    `${organisation ?? 'ఏజెంట్'} కస్టమర్‌కు${person ? ` (${person})` : ''}${product ? ` ${product} గురించి` : ''} కాల్ చేశారు${list(facts)}.`,
  emi: (amount) => `${amount} వాయిదా`,
  said: (quote) => `కస్టమర్ చెప్పింది: “${quote}”`,
  asked: (quote) => `కస్టమర్ అడిగింది: “${quote}”`,
  outcome: {
    loan_renewal_interest: () => 'కస్టమర్ లోన్ రెన్యూ చేయాలనుకుంటున్నారు',
    interested: () => 'కస్టమర్ ఆఫర్‌పై ఆసక్తి చూపారు',
    not_interested: () => 'కస్టమర్ ఆఫర్‌ను తిరస్కరించారు',
    payment_promise: ({ amount, when }) => `కస్టమర్${amount ? ` ${amount}` : ''} చెల్లిస్తానని హామీ ఇచ్చారు${when ? ` (${when})` : ''}`,
    payment_query: () => 'కస్టమర్ చెల్లించాల్సిన మొత్తం గురించి అడిగారు',
    policy_query: () => 'కస్టమర్ పాలసీ గురించి అడిగారు',
    complaint: () => 'కస్టమర్ ఫిర్యాదు చేశారు',
    callback_request: ({ when }) => `కస్టమర్ మళ్ళీ కాల్ చేయమన్నారు${when ? ` (${when})` : ''}`,
    human_agent_request: () => 'కస్టమర్ ఒక వ్యక్తితో మాట్లాడాలని కోరారు',
    dnd_request: () => 'కస్టమర్ మళ్ళీ కాల్ చేయవద్దని చెప్పారు',
    wrong_number: () => 'తప్పు నంబర్: కాల్ సరైన కస్టమర్‌కు చేరలేదు',
  },
  noIntent: 'కస్టమర్ నుండి స్పష్టమైన అభ్యర్థన లేదు',
  otherIntent: (label) => `కస్టమర్ ఉద్దేశం: ${label}`,
  disposition: {
    interested: 'ఆసక్తి ఉంది',
    not_interested: 'ఆసక్తి లేదు',
    callback: 'మళ్ళీ కాల్ చేయాలి',
    not_reachable: 'కస్టమర్ అందుబాటులో లేరు',
    dnd: 'కాల్ చేయకూడని నంబర్',
    escalated: 'మానవ ఏజెంట్‌కు బదిలీ',
  },
  otherDisposition: (label) => label,
  endedAs: (disposition) => `; కాల్ ఫలితం: ${disposition}`,
  tone: { positive: '; కస్టమర్ సంతృప్తిగా ఉన్నారు', negative: '; కస్టమర్ అసంతృప్తిగా ఉన్నారు' },
  next: {
    callback: ({ when }) => `${when ?? 'అంగీకరించిన సమయానికి'} మళ్ళీ కాల్ చేయండి`,
    payment: ({ when }) => `చెల్లింపు జరిగిందో లేదో చూడండి${when ? ` (${when})` : ''}`,
    opt_out: () => 'నంబర్‌ను కాలింగ్ జాబితా నుండి తీసివేయండి (ఆప్ట్-అవుట్)',
    fix_record: () => 'కాంటాక్ట్ వివరాలు సరిచేయండి',
    escalate: () => 'ఉన్నతాధికారికి అప్పగించండి',
    renewal: () => 'రెన్యూవల్ ప్రక్రియ ప్రారంభించండి',
    send_details: () => 'కస్టమర్‌కు వివరాలు పంపండి',
  },
  outcomeSentence: (outcome, next) => `${outcome}${next ? `; తదుపరి చర్య: ${next}` : ''}.`,
  noSpeech: 'ఏ మాటలూ ట్రాన్స్‌క్రైబ్ కాలేదు.',
};

export const SUMMARY_TEMPLATES: Record<SummaryLanguage, SummaryTemplates> = { en, hi, mr, ta, te };

/** The summary's language: the call's, except Hinglish (romanised Hindi) and anything unknown, which get English. */
export function summaryLanguage(subtag: string, mostlyLatin: boolean): SummaryLanguage {
  if (subtag === 'hi' || subtag === 'mr' || subtag === 'ta' || subtag === 'te') return mostlyLatin ? 'en' : subtag;
  return 'en';
}
