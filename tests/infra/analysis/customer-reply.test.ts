import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyReply, REPLY_INTENTS, sampleReplies, type SampleReplyLanguage } from '../../../infra/analysis/customer-reply.ts';

const callLanguage: Record<SampleReplyLanguage, string[]> = {
  'en': ['en-IN'],
  'hi': ['hi-IN'],
  'hi-Latn': ['hi-IN', 'en-IN'], // Hinglish arrives tagged either way
  'mr': ['mr-IN'],
  'ta': ['ta-IN'],
  'te': ['te-IN'],
};

test('every sample reply classifies to its own intent', () => {
  for (const [sampleLanguage, byIntent] of Object.entries(sampleReplies) as [SampleReplyLanguage, Record<string, string[]>][]) {
    for (const language of callLanguage[sampleLanguage]) {
      for (const [intent, phrases] of Object.entries(byIntent)) {
        for (const phrase of phrases) {
          const result = classifyReply(phrase, language);
          assert.is(result.intent, intent, `${language}: "${phrase}"`);
          assert.ok(result.confidence > 0.5 && result.confidence <= 1);
        }
      }
    }
  }
});

test('samples exist for every language and intent, two or three each', () => {
  assert.equal(Object.keys(sampleReplies).sort(), ['en', 'hi', 'hi-Latn', 'mr', 'ta', 'te']);
  for (const byIntent of Object.values(sampleReplies)) {
    assert.equal(Object.keys(byIntent).sort(), [...REPLY_INTENTS].sort());
    for (const phrases of Object.values(byIntent)) assert.ok(phrases.length >= 2 && phrases.length <= 3);
  }
});

const tricky: [text: string, language: string, expected: string][] = [
  ["don't call me again", 'en-IN', 'stop_calling'],
  ["No, don't call me again.", 'en-IN', 'stop_calling'],
  ['not now, call later', 'en-IN', 'callback_later'],
  ["No, not now, I'm busy.", 'en-IN', 'callback_later'],
  ['Yes, but call me tomorrow.', 'en-IN', 'callback_later'],
  ["I'm not interested", 'en-IN', 'deny'],
  ['No, you have the wrong number.', 'en-IN', 'wrong_person'],
  ["I'm not busy, go ahead", 'en-IN', 'affirm'],
  ['No problem, tell me', 'en-IN', 'affirm'],
  ['Who is this? I want to speak to a human.', 'en-IN', 'request_human'],
  ['haan ji, batao', 'hi-IN', 'affirm'],
  ['abhi busy hoon, baad mein call karna', 'hi-IN', 'callback_later'],
  ['mujhe kisi insaan se baat karni hai', 'hi-IN', 'request_human'],
  ['dobara call mat karna', 'en-IN', 'stop_calling'],
  ['galat number hai', 'hi-IN', 'wrong_person'],
  ['nahi chahiye', 'hi-IN', 'deny'],
  ['nahi, abhi nahi, baad mein', 'hi-IN', 'callback_later'],
  ['nahi chahiye, aur dobara call mat karna', 'hi-IN', 'stop_calling'],
  ['koi baat nahi, boliye', 'hi-IN', 'affirm'],
  ['नहीं, अभी नहीं, कल बात करते हैं', 'hi-IN', 'callback_later'],
  ['यहाँ इस नाम का कोई नहीं है', 'hi-IN', 'wrong_person'],
  ['हरकत नाही, बोला', 'mr-IN', 'affirm'],
  ['பரவாயில்லை, சொல்லுங்க', 'ta-IN', 'affirm'],
  ['இப்போ வேண்டாம், அப்புறம் கூப்பிடுங்க', 'ta-IN', 'callback_later'],
  ['ఇప్పుడు కాదు, తర్వాత ఫోన్ చేయండి', 'te-IN', 'callback_later'],
  ['yes', 'ta-IN', 'affirm'],
];

test('tricky overlaps resolve to the intent that obliges the caller most', () => {
  for (const [text, language, expected] of tricky) {
    assert.is(classifyReply(text, language).intent, expected, `${language}: "${text}"`);
  }
});

test('nothing recognisable gives null with confidence 0', () => {
  assert.equal(classifyReply('', 'en-IN'), { intent: null, confidence: 0 });
  assert.equal(classifyReply('...', 'hi-IN'), { intent: null, confidence: 0 });
  assert.equal(classifyReply('the weather is lovely', 'en-IN'), { intent: null, confidence: 0 });
});

test('extra keywords from a script extend the lists', () => {
  assert.is(classifyReply('ekdum pakka', 'hi-IN').intent, null);
  const extra = { affirm: ['pakka'], stop_calling: ['band karo'] };
  assert.is(classifyReply('ekdum pakka', 'hi-IN', extra).intent, 'affirm');
  assert.is(classifyReply('yeh sab band karo', 'hi-IN', extra).intent, 'stop_calling');
});

test('a reply that mixes intents is less confident than a clean one', () => {
  const clean = classifyReply('call me later', 'en-IN');
  const mixed = classifyReply('yes yes, okay, fine, but later', 'en-IN');
  assert.is(mixed.intent, 'callback_later');
  assert.ok(mixed.confidence < clean.confidence);
});

test.run();
