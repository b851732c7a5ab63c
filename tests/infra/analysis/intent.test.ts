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

const moreCases: [language: string, agent: string, customer: string, expected: string][] = [
  ['en-IN', 'Your gold loan term ends this week.', 'Can I pay the interest and get it extended for six months?', 'loan_renewal_interest'],
  ['en-IN', 'A child plan from us, ma\'am.', "We've already taken care of that. We'll pass for now.", 'not_interested'],
  ['en-IN', 'Your account is 40 days overdue.', 'I can manage three thousand by Saturday.', 'payment_promise'],
  ['hi-IN', 'आपका गोल्ड लोन इस हफ़्ते खत्म हो रहा है।', 'ब्याज भरकर इसे फिर से चालू करवा दीजिए।', 'loan_renewal_interest'],
  ['hi-IN', 'क्या अमित जी बोल रहे हैं?', 'रिकॉर्ड ठीक कीजिए, मेरा उनसे कोई लेना-देना नहीं है।', 'wrong_number'],
  ['hi-IN', 'Sir, aapke pension plan ke liye call kiya tha.', 'Abhi bahar hoon, weekend pe call karoge?', 'callback_request'],
  ['hi-IN', 'Pooja ji?', 'Pooja naam ka koi yahan nahi hai, record update karo.', 'wrong_number'],
  ['mr-IN', 'तुमचं कर्ज पुढच्या महिन्यात संपतंय.', 'कर्ज पुन्हा सुरू करा, मी कागदपत्रं पाठवतो.', 'loan_renewal_interest'],
  ['mr-IN', 'मुदत ठेवीवर खास व्याजदर आहे.', 'सध्या काही विचार नाही, राहू दे.', 'not_interested'],
  ['mr-IN', 'तुमची आरोग्य पॉलिसी सुरू झाली.', 'आधीच्या आजारांना कव्हर मिळेल का?', 'policy_query'],
  ['ta-IN', 'உங்க நகைக் கடன் காலம் முடியுது.', 'வட்டி கட்டிட்டு இன்னும் ஆறு மாசம் நீட்டிக்க முடியுமா?', 'loan_renewal_interest'],
  ['ta-IN', 'வணக்கம் சார்.', 'என் நம்பரை உங்க கால் லிஸ்ட்ல இருந்து நீக்கிடுங்க.', 'dnd_request'],
  ['ta-IN', 'ராஜேஷ் சார்?', 'எனக்கும் அவருக்கும் எந்த சம்பந்தமும் இல்ல.', 'wrong_number'],
  ['ta-IN', 'சார், உங்க க்ளெய்ம் பத்தி.', 'உங்க சூப்பர்வைசர் கிட்ட பேசணும்.', 'human_agent_request'],
  ['te-IN', 'హలో సార్, రెండు నిమిషాలు మాట్లాడొచ్చా?', 'రేపు పొద్దున పది గంటలకి చేయండి.', 'callback_request'],
  ['te-IN', 'మీ బంగారు రుణం గడువు ముగుస్తుంది.', 'ఇంకో సంవత్సరం పొడిగించాలి.', 'loan_renewal_interest'],
];

test('given a customer turn with a cue, then the intent is detected per language (more phrasings, issue 18)', () => {
  for (const [language, agent, customer, expected] of moreCases) {
    assert.is(detectIntent(callOf(agent, customer), language), expected, `${language}: ${customer}`);
  }
});

test("given a question first and a decision last, then the customer's last cue-bearing turn decides a tie", () => {
  const call: TranscriptSegment[] = [
    { speaker: 'agent', text: 'Our zero-depreciation plan is cheap this year.', start_time: 0, end_time: 3 },
    { speaker: 'customer', text: 'How much?', start_time: 3.5, end_time: 4.5 },
    { speaker: 'agent', text: 'Only 1,800 rupees sir.', start_time: 5, end_time: 7 },
    { speaker: 'customer', text: 'Okay, send me the details.', start_time: 7.5, end_time: 9 },
  ];
  // Both cues weigh 2; without the last-turn weight the tie would go to payment_query by priority.
  assert.is(detectIntent(call, 'en-IN'), 'interested');
});

test("given the agent's last sentence names a complaint, when the customer opens with yes, then the complaint is theirs", () => {
  const followUp: [string, string, string][] = [
    ['en-IN', 'Sir, calling from Axis Bank regarding the complaint you raised about the late fee.', 'Yes, that charge was not my fault.'],
    ['hi-IN', 'सर, आपने लेट फीस की शिकायत की थी, उसी के बारे में कॉल किया है।', 'हाँ, वो चार्ज गलत था।'],
    ['hi-IN', 'Sir, aapki double debit wali complaint ke baare mein call hai.', 'Haan, paisa do baar kata tha.'],
    ['ta-IN', 'சார், உங்கள் புகார் குறித்து அழைக்கிறேன்.', 'ஆமாம், அந்த கட்டணம் தவறு.'],
  ];
  for (const [language, agent, customer] of followUp) {
    assert.is(detectIntent(callOf(agent, customer), language), 'complaint', `${language}: ${customer}`);
  }
});

test('given a yes, when it answers a later question of the agent, then an earlier sentence of that turn is not adopted', () => {
  const call = callOf('மேடம், பதிவுகளை புதுப்பிக்கிறோம். உங்கள் முகவரி இன்னும் அடையாறு தானா?', 'ஆமாம், முகவரி அதே தான்.');
  assert.is(detectIntent(call, 'ta-IN'), null);
});

test("given the customer's own strong cue, when they also confirm the agent's cue, then their own words win", () => {
  const call = callOf('Sir, shall I register a complaint?', "Yes. Actually, I'm interested, send me the details.");
  assert.is(detectIntent(call, 'en-IN'), 'interested');
});

test('given a turn that names a form, when Hindi or Marathi "fill" follows, then it is no payment promise', () => {
  const hindi = callOf('मैडम, बिना सालाना फीस वाला क्रेडिट कार्ड है।', 'ठीक है, मुझे जानकारी चाहिए। फॉर्म भेज दीजिए, मैं भर दूँगी।');
  assert.is(detectIntent(hindi, 'hi-IN'), 'interested');
  const hinglish = callOf('Madam, credit card offer hai.', 'Form bhej do, main bhar dungi.');
  assert.not.equal(detectIntent(hinglish, 'hi-IN'), 'payment_promise');
  // Without a form word "भर दूँगी" stays a promise.
  assert.is(detectIntent(callOf('आपकी किस्त बाकी है।', 'सोमवार को भर दूँगी।'), 'hi-IN'), 'payment_promise');
});

test('given a Hinglish extension verb and a loan, then the interest is a loan renewal', () => {
  const call = callOf('Sir, aapka gold loan 20 tareekh ko mature ho raha hai.', 'Haan, mujhe usko aage badhana hai. Kya documents lagenge?');
  assert.is(detectIntent(call, 'hi-IN'), 'loan_renewal_interest');
});

test('given a Marathi refusal, when the customer also says the calls harass them, then it is a refusal, not a complaint', () => {
  const call = callOf('सर, तुमच्यासाठी पूर्व-मंजूर कर्ज आहे.', 'नको, मला काही नको. रोज फोन करून त्रास देता तुम्ही.');
  assert.is(detectIntent(call, 'mr-IN'), 'not_interested');
});

test.run();
