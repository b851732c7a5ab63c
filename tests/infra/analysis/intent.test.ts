import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { INTENT_LABELS, INTENT_PRIORITY } from '../../../infra/analysis/intent-labels.ts';
import { detectIntent, intentScores } from '../../../infra/analysis/intent.ts';
import type { TranscriptSegment } from '../../../infra/analysis/port.ts';

function callOf(agent: string, customer: string): TranscriptSegment[] {
  return [
    { speaker: 'agent', text: agent, start_time: 0, end_time: 4 },
    { speaker: 'customer', text: customer, start_time: 4.5, end_time: 9 },
  ];
}

const cases: [language: string, agent: string, customer: string, expected: string][] = [
  ['en-IN', 'Your personal loan is due for renewal.', 'Yes, please renew it for another year.', 'loan_renewal_interest'],
  ['en-IN', 'We have a new term insurance plan.', "I'm interested, send me the details.", 'interested'],
  ['en-IN', 'Your EMI is overdue.', "I'll pay it by Monday, I promise.", 'payment_promise'],
  ['en-IN', 'Hello sir.', 'How many EMIs are left and what is the due date?', 'payment_query'],
  ['en-IN', 'Hello sir.', 'You charged me twice, I want a refund.', 'complaint'],
  ['en-IN', 'Hello sir, an offer for you.', "Don't call me again, put me on DND.", 'dnd_request'],
  ['hi-IN', 'सर, आपका लोन रिन्यूअल के लिए ड्यू है।', 'हाँ, मुझे रिन्यू करवाना है।', 'loan_renewal_interest'],
  ['hi-IN', 'आपकी ईएमआई बाकी है।', 'सोमवार तक पक्का भर दूँगा।', 'payment_promise'],
  ['hi-IN', 'नमस्ते सर।', 'अभी मीटिंग में हूँ, बाद में फ़ोन कीजिए।', 'callback_request'],
  ['hi-IN', 'नमस्ते, क्या रमेश जी हैं?', 'यहाँ कोई रमेश नहीं है, गलत नंबर है।', 'wrong_number'],
  ['hi-IN', 'Aapka loan renewal due hai.', 'Haan ji, renew karwana hai, process shuru kar dijiye.', 'loan_renewal_interest'],
  ['hi-IN', 'Hello sir, offer hai.', 'Dobara call mat karna, number hatao.', 'dnd_request'],
  ['en-IN', 'Hello sir.', 'Mujhe kisi insaan se baat karni hai.', 'human_agent_request'],
  ['en-IN', 'Hello sir, top-up loan offer.', 'Nahi chahiye, interest nahi hai.', 'not_interested'],
  ['mr-IN', 'तुमचं लोन नूतनीकरणासाठी आहे.', 'हो, मला रिन्यू करायचं आहे.', 'loan_renewal_interest'],
  ['mr-IN', 'नमस्कार सर.', 'तुमची सेवा वाईट आहे, मला तक्रार करायची आहे.', 'complaint'],
  ['mr-IN', 'नमस्कार सर.', 'परत फोन करू नका.', 'dnd_request'],
  ['ta-IN', 'வணக்கம் சார்.', 'இந்த பாலிசில என்ன கவர் ஆகுமா? காப்பீட்டுத் தொகை எவ்வளவு?', 'policy_query'],
  ['ta-IN', 'வணக்கம் சார்.', 'இப்போ பிஸியா இருக்கேன், அப்புறம் கூப்பிடுங்க.', 'callback_request'],
  ['ta-IN', 'வணக்கம் சார்.', 'எனக்கு வேண்டாம், தேவையில்லை.', 'not_interested'],
  ['te-IN', 'నమస్కారం సార్.', 'ఈ నెల ఎంత బాకీ ఉంది? ఎలా కట్టాలి?', 'payment_query'],
  ['te-IN', 'నమస్కారం సార్.', 'రాంగ్ నంబర్, ఇక్కడ ఆ పేరుతో ఎవరూ లేరు.', 'wrong_number'],
  ['te-IN', 'నమస్కారం, ఇది ఆటోమేటెడ్ కాల్.', 'ఒక అధికారితో మాట్లాడించండి.', 'human_agent_request'],
];

test('detects the customer intent per language, incl. Hinglish in hi-IN and en-IN calls', () => {
  for (const [language, agent, customer, expected] of cases) {
    assert.is(detectIntent(callOf(agent, customer), language), expected, `${language}: ${customer}`);
  }
});

test('null when the customer says nothing that signals an intent', () => {
  assert.is(detectIntent(callOf('Hello, how are you?', 'I am fine, the weather is nice today.'), 'en-IN'), null);
  assert.is(detectIntent(callOf('नमस्ते', 'हाँ जी'), 'hi-IN'), null);
  assert.is(detectIntent([], 'ta-IN'), null);
});

test("only the customer's words count when a customer is labelled", () => {
  const agentTalksOfDnd = callOf('You can say stop calling or DND at any time. Do you want a callback?', 'Yes, please renew my loan.');
  assert.is(detectIntent(agentTalksOfDnd, 'en-IN'), 'loan_renewal_interest');
});

test('with no customer label, every segment counts', () => {
  const unlabelled = callOf('Hello.', 'Wrong number.').map((segment) => ({ ...segment, speaker: 'speaker_1' }));
  assert.is(detectIntent(unlabelled, 'en-IN'), 'wrong_number');
});

test('interest resolves to loan_renewal_interest only when the call is about renewing a loan', () => {
  const insurance = callOf('Your car insurance renewal is due.', "Yes, I'm interested, go ahead.");
  const loan = callOf('Your gold loan renewal is due.', "Yes, I'm interested, go ahead.");
  assert.is(detectIntent(insurance, 'en-IN'), 'interested');
  assert.is(detectIntent(loan, 'en-IN'), 'loan_renewal_interest');
});

test('a negated interest phrase counts as not_interested (English and SOV Hindi)', () => {
  assert.is(detectIntent(callOf('Your loan renewal is due.', "I don't want to renew."), 'en-IN'), 'not_interested');
  assert.is(detectIntent(callOf('आपका लोन रिन्यूअल ड्यू है।', 'मुझे रिन्यू नहीं करवाना।'), 'hi-IN'), 'not_interested');
});

test('"don\'t call me again" beats "don\'t want": dnd over not_interested', () => {
  const call = callOf('An offer for you.', "I don't want anything. Please don't call this number again.");
  assert.is(detectIntent(call, 'en-IN'), 'dnd_request');
  const hindi = callOf('ऑफ़र है।', 'मुझे कुछ नहीं चाहिए। कृपया आगे से कॉल मत कीजिए।');
  assert.is(detectIntent(hindi, 'hi-IN'), 'dnd_request');
});

test('intentScores covers every label and the priority lists every label once', () => {
  const scores = intentScores(callOf('x', 'y'), 'en-IN');
  assert.equal(Object.keys(scores).sort(), [...INTENT_LABELS].sort());
  assert.equal([...INTENT_PRIORITY].sort(), [...INTENT_LABELS].sort());
});

test.run();
