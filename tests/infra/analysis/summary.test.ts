import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TranscriptSegment } from '../../../infra/analysis/port.ts';
import { summarize } from '../../../infra/analysis/summary.ts';
import { SUMMARY_TEMPLATES } from '../../../infra/analysis/summary-templates.ts';
import { INTENT_LABELS } from '../../../infra/analysis/intent-labels.ts';

function sentenceCount(text: string, language: string): number {
  const segmenter = new Intl.Segmenter(language.slice(0, 2), { granularity: 'sentence' });
  return [...segmenter.segment(text)].filter((part) => part.segment.trim()).length;
}

interface LabelledTranscript {
  id: string;
  language: string;
  segments: TranscriptSegment[];
}

const labelled: LabelledTranscript[] = JSON.parse(
  readFileSync(new URL('../../../bench/data/labelled-transcripts.json', import.meta.url), 'utf8'),
).transcripts;

test('a one-segment transcript: who called, the customer\'s words, the outcome with the time they named', () => {
  const segments = [{ speaker: 'customer', text: 'Please call me back tomorrow', start_time: 0, end_time: 2 }];
  const summary = summarize({ segments, language: 'en-IN' });
  assert.is(sentenceCount(summary, 'en-IN'), 3);
  assert.is(
    summary,
    'The agent called the customer. The customer said: “Please call me back tomorrow.” The customer asked to be called back (tomorrow); next step: call back tomorrow.',
  );
});

test('a one-word greeting and an empty transcript still give two sentences, in the call\'s language', () => {
  const short = summarize({ segments: [{ speaker: 'agent', text: 'नमस्ते', start_time: 0, end_time: 1 }], language: 'hi-IN' });
  assert.is(sentenceCount(short, 'hi-IN'), 2);
  assert.is(short, 'एजेंट ने ग्राहक को कॉल किया। ग्राहक का कोई स्पष्ट अनुरोध नहीं था।');
  const empty = summarize({ segments: [], language: 'ta-IN' });
  assert.is(sentenceCount(empty, 'ta-IN'), 2);
  assert.ok(empty.endsWith('எந்தப் பேச்சும் எழுத்தாக்கப்படவில்லை.'));
});

test('a long transcript gives at most four sentences and quotes only the customer', () => {
  const topics = ['loan', 'EMI', 'renewal', 'interest rate', 'documents', 'branch', 'insurance', 'premium'];
  const segments = Array.from({ length: 40 }, (_, index) => ({
    speaker: index % 2 === 0 ? 'agent' : 'customer',
    text: `We talked about the ${topics[index % topics.length]} and the loan renewal for item number ${index}.`,
    start_time: index * 5,
    end_time: index * 5 + 4,
  }));
  const summary = summarize({ segments, language: 'en-IN' });
  const count = sentenceCount(summary, 'en-IN');
  assert.ok(count >= 2 && count <= 4, summary);
  const numbers = [...summary.matchAll(/item number (\d+)/g)].map((match) => Number(match[1]));
  assert.ok(numbers.length >= 1 && numbers.every((n) => n % 2 === 1), `only customer turns are quoted: ${summary}`);
  assert.equal(numbers, [...numbers].sort((a, b) => a - b));
});

const OWN_SCRIPT: Record<string, RegExp> = {
  hi: /\p{Script=Devanagari}/u,
  mr: /\p{Script=Devanagari}/u,
  ta: /\p{Script=Tamil}/u,
  te: /\p{Script=Telugu}/u,
};

test('every labelled transcript gets 2 to 4 sentences in its own language (Hinglish in English)', () => {
  for (const transcript of labelled) {
    const summary = summarize({ segments: transcript.segments, language: transcript.language });
    const count = sentenceCount(summary, transcript.language);
    assert.ok(count >= 2 && count <= 4, `${transcript.id}: ${count} sentences: ${summary}`);
    const script = OWN_SCRIPT[transcript.language.slice(0, 2)];
    const opening = summary.split(/[.।]/u)[0]!;
    if (transcript.id.startsWith('hinglish')) assert.ok(opening.endsWith('called the customer') || opening.includes('called the customer about'), `${transcript.id}: ${summary}`);
    else if (script) assert.ok(script.test(opening), `${transcript.id}: ${summary}`);
  }
});

test('the outcome sentence uses the given intent and disposition, and names the next step', () => {
  const segments = [{ speaker: 'customer', text: 'Theek hai.', start_time: 0, end_time: 1 }];
  const summary = summarize({ segments, language: 'hi-IN', intent: 'payment_promise', disposition: 'callback' });
  // Romanised Hindi is summarised in English; "Theek hai." is a pleasantry, not content.
  assert.is(summary, 'The agent called the customer. The customer promised to pay; the call ended with a callback to arrange; next step: call back at a time to agree.');
  const unknown = summarize({ segments, language: 'hi-IN', intent: null, disposition: 'not_reachable' });
  assert.ok(unknown.includes('The customer made no clear request'));
  assert.ok(unknown.includes('the call ended without reaching the customer'));
  const other = summarize({ segments, language: 'hi-IN', intent: 'payment_dispute', disposition: 'on_hold' });
  assert.ok(other.includes("The customer's intent: payment dispute; the call ended as on hold"), other);
});

const at = (speaker: string, text: string, start: number) => ({ speaker, text, start_time: start, end_time: start + 2 });

test('the person the agent asks for is named, except in a wrong-number call', () => {
  const opening = at('agent', 'Good morning, this is Priya calling from Sunrise Finance. Am I speaking with Mr. Rakesh?', 0);
  const named = summarize({ segments: [opening, at('customer', 'Yes, please renew my personal loan.', 3)], language: 'en-IN' });
  assert.ok(named.startsWith('Sunrise Finance called Mr Rakesh about the personal loan.'), named);
  const wrong = summarize({ segments: [opening, at('customer', 'No, you have the wrong number.', 3)], language: 'en-IN', intent: 'wrong_number' });
  assert.ok(wrong.startsWith('Sunrise Finance called the customer.'), wrong);
});

test('the call of issue 18: who called about what amount and when, the customer\'s words, no boilerplate', () => {
  const segments = [
    at('agent', 'नमस्ते, मैं सनराइज़ फ़ाइनेंस से प्रिया बोल रही हूँ। यह कॉल रिकॉर्ड की जा रही है।', 0),
    at('agent', 'आपका गोल्ड लोन दस तारीख को पूरा हो रहा है, दो लाख रुपये तक फिर से रिन्यू हो सकता है। क्या आगे बढ़ें?', 3),
    at('customer', 'जी हाँ, आगे बढ़िए।', 8),
    at('agent', 'धन्यवाद, हमारी टीम आपको जल्द ही कॉल करेगी।', 10),
  ];
  assert.is(
    summarize({ segments, language: 'hi-IN', disposition: 'interested' }),
    'सनराइज़ फ़ाइनेंस ने ग्राहक को गोल्ड लोन के बारे में कॉल किया (₹2 लाख, दस तारीख)। ग्राहक ने कहा: “जी हाँ, आगे बढ़िए।” ' +
      'ग्राहक लोन रिन्यू करवाना चाहते हैं; कॉल का नतीजा: ग्राहक इच्छुक; अगला कदम: रिन्यूअल की प्रक्रिया शुरू करें।',
  );
});

test('script lines said on every call are never quoted; the callback time the customer named is the next step', () => {
  const segments = [
    at('agent', 'Hello, this is Ravi from Sahay Finance. This call is recorded.', 0),
    at('agent', 'Your EMI of Rs. 4,200 was due on the 5th.', 3),
    at('customer', 'Hello? Yes, speaking.', 5),
    at('customer', 'I am travelling, please call me on Monday after 6 pm.', 6),
    at('customer', 'Thank you, bye.', 8),
    at('agent', 'Thank you, our team will call you shortly.', 9),
  ];
  const summary = summarize({ segments, language: 'en-IN', disposition: 'callback' });
  assert.is(
    summary,
    'Sahay Finance called the customer about the EMI (₹4,200 EMI, 5th). The customer said: “I am travelling, please call me on Monday after 6 pm.” ' +
      'The customer asked to be called back (Monday after 6 pm); the call ended with a callback to arrange; next step: call back Monday after 6 pm.',
  );
  for (const line of ['recorded', 'our team will call', 'speaking', 'bye']) assert.not.ok(summary.includes(line), line);
});

const EXAMPLES: Array<[language: string, segments: TranscriptSegment[], parts: string[]]> = [
  ['mr-IN', [
    at('agent', 'नमस्कार, मी आयसीआयसीआय बँकेतून बोलतेय. तुमचा पाच हजार रुपयांचा हप्ता थकला आहे.', 0),
    at('customer', 'हो, मी पुढच्या सोमवारी पाच हजार भरतो.', 4),
  ], ['ग्राहकाला', '₹5,000', 'भरण्याचे आश्वासन दिले', 'सोमवारी', 'पुढील पाऊल']],
  ['ta-IN', [
    at('agent', 'வணக்கம், நான் முத்தூட் ஃபைனான்ஸ்ல இருந்து பேசுறேன். உங்க நகைக் கடன் இந்த வாரம் முடியுது.', 0),
    at('customer', 'நான் இப்போ பிஸியா இருக்கேன், நாளைக்கு மாலை கூப்பிடுங்க.', 4),
  ], ['முத்தூட் ஃபைனான்ஸ் வாடிக்கையாளரை நகைக் கடன் பற்றி அழைத்தார்', 'மீண்டும் அழைக்கச் சொன்னார்', 'நாளைக்கு மாலை', 'அடுத்த படி']],
  ['te-IN', [
    at('agent', 'నమస్కారం, యాక్సిస్ బ్యాంక్ నుంచి మాట్లాడుతున్నాను. మీ క్రెడిట్ కార్డ్ బిల్లు గురించి.', 0),
    at('customer', 'నా నంబర్ మీ లిస్ట్ నుంచి తీసేయండి, మళ్ళీ కాల్ చేయొద్దు.', 4),
  ], ['యాక్సిస్ బ్యాంక్ కస్టమర్‌కు క్రెడిట్ కార్డ్ గురించి కాల్ చేశారు', 'మళ్ళీ కాల్ చేయవద్దని', 'ఆప్ట్-అవుట్']],
];

for (const [language, segments, parts] of EXAMPLES) {
  test(`${language}: the summary is written in the call's language and carries its facts`, () => {
    const summary = summarize({ segments, language });
    for (const part of parts) assert.ok(summary.includes(part), `${part} missing from: ${summary}`);
  });
}

test('every intent label has an outcome sentence in every summary language', () => {
  for (const [language, templates] of Object.entries(SUMMARY_TEMPLATES)) {
    for (const label of INTENT_LABELS) assert.type(templates.outcome[label], 'function', `${language}: ${label}`);
  }
});

test('the summary is deterministic', () => {
  const transcript = labelled[0]!;
  const input = { segments: transcript.segments, language: transcript.language };
  assert.is(summarize(input), summarize(input));
});

test.run();
