import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  analyzeSentiment,
  NEGATIVE_THRESHOLD,
  normalizeValence,
  POSITIVE_THRESHOLD,
  sentimentBucket,
  textValence,
} from '../../../infra/analysis/sentiment.ts';

const negationCases: [language: string, positive: string, negated: string][] = [
  ['en-IN', 'The service is good', 'The service is not good'],
  ['hi-IN', 'सर्विस अच्छी है', 'सर्विस अच्छी नहीं है'],
  ['hi-IN', 'service badhiya hai', 'service badhiya nahi hai'],
  ['en-IN', 'experience accha laga', 'experience accha nahi laga'],
  ['mr-IN', 'सेवा छान आहे', 'सेवा छान नाही'],
  ['ta-IN', 'சர்வீஸ் நல்லா இருக்கு', 'சர்வீஸ் நல்லா இல்லை'],
  ['te-IN', 'సర్వీస్ మంచిది', 'సర్వీస్ మంచిది కాదు'],
];

test('negation flips a positive word in every language (English before, Indic after the word)', () => {
  for (const [language, positive, negated] of negationCases) {
    assert.ok(textValence(positive, language) > 0, `${language}: "${positive}" should be positive`);
    assert.ok(textValence(negated, language) < 0, `${language}: "${negated}" should be negative`);
  }
});

test('a negated negative is only mildly positive: "no problem" is reassurance, not praise', () => {
  const problem = textValence('कोई दिक्कत है', 'hi-IN');
  const noProblem = textValence('कोई दिक्कत नहीं', 'hi-IN');
  assert.ok(problem < 0);
  assert.ok(noProblem > 0 && noProblem < -problem / 2);
});

test('negation does not reach across a comma', () => {
  assert.ok(textValence('नहीं, बहुत अच्छा है', 'hi-IN') > 0);
  assert.ok(textValence('No, this is great', 'en-IN') > 0);
});

test('annoyed negative imperatives stay negative', () => {
  assert.ok(textValence("Don't waste my time", 'en-IN') < 0);
  assert.ok(textValence('मेरा समय बर्बाद मत कीजिए', 'hi-IN') < 0);
  assert.ok(textValence('என் நேரத்தை வீணாக்காதீங்க', 'ta-IN') < 0);
});

const intensifierCases: [language: string, plain: string, intensified: string][] = [
  ['en-IN', 'it was good', 'it was very good'],
  ['hi-IN', 'अच्छा है', 'बहुत अच्छा है'],
  ['hi-IN', 'badhiya', 'bahut badhiya'],
  ['mr-IN', 'छान', 'खूप छान'],
  ['ta-IN', 'நல்லது', 'ரொம்ப நல்லது'],
  ['te-IN', 'బాగుంది', 'చాలా బాగుంది'],
  ['hi-IN', 'खराब है', 'बहुत खराब है'],
];

test('intensifiers strengthen the following sentiment word', () => {
  for (const [language, plain, intensified] of intensifierCases) {
    const a = textValence(plain, language);
    const b = textValence(intensified, language);
    assert.ok(Math.abs(b) > Math.abs(a) && Math.sign(a) === Math.sign(b), `${language}: ${plain} vs ${intensified}`);
  }
});

test('a "but" clause outweighs what came before it', () => {
  assert.ok(textValence('The plan is good but very expensive', 'en-IN') < 0);
  assert.ok(textValence('थोड़ा महंगा है लेकिन बहुत बढ़िया है', 'hi-IN') > 0);
});

test('neutral call-centre phrases carry no sentiment', () => {
  assert.is(textValence('You have the wrong number', 'en-IN'), 0);
  assert.is(textValence('What is my outstanding balance?', 'en-IN'), 0);
  assert.is(textValence('No thanks', 'en-IN'), 0);
  assert.is(textValence('Good morning sir', 'en-IN'), 0);
});

test('Hinglish words are found in en-IN calls and Devanagari words in hi-IN calls', () => {
  assert.ok(textValence('Bahut bekaar service hai yaar', 'en-IN') < 0);
  assert.ok(textValence('बहुत बेकार सर्विस है', 'hi-IN') < 0);
  assert.ok(textValence('Bahut bekaar service hai', 'hi-IN') < 0);
});

test('bucket thresholds: > 0.25 positive, < -0.25 negative, else neutral', () => {
  assert.is(POSITIVE_THRESHOLD, 0.25);
  assert.is(NEGATIVE_THRESHOLD, -0.25);
  assert.is(sentimentBucket(0.26), 'positive');
  assert.is(sentimentBucket(0.25), 'neutral');
  assert.is(sentimentBucket(0), 'neutral');
  assert.is(sentimentBucket(-0.25), 'neutral');
  assert.is(sentimentBucket(-0.26), 'negative');
  assert.is(sentimentBucket(1), 'positive');
  assert.is(sentimentBucket(-1), 'negative');
});

test('normalizeValence squashes sums into [-1, 1]; a lone "thank you" stays neutral', () => {
  assert.is(normalizeValence(0), 0);
  assert.ok(normalizeValence(1000) <= 1 && normalizeValence(1000) > 0.99);
  assert.ok(normalizeValence(-1000) >= -1 && normalizeValence(-1000) < -0.99);
  assert.is(sentimentBucket(normalizeValence(textValence('Thank you', 'en-IN'))), 'neutral');
  assert.is(sentimentBucket(normalizeValence(textValence('That is good', 'en-IN'))), 'positive');
});

const call = [
  { speaker: 'agent', text: 'Thank you for your time, sir. Have a wonderful day.', start_time: 0, end_time: 3 },
  { speaker: 'customer', text: 'Your service is terrible. I am very angry.', start_time: 3, end_time: 6 },
  { speaker: 'customer', text: 'Nobody helped me.', start_time: 6, end_time: 8 },
];

test('scores per speaker; overall follows the customer, not the agent\'s courtesy', () => {
  const result = analyzeSentiment(call, 'en-IN');
  assert.equal(Object.keys(result.by_speaker).sort(), ['agent', 'customer']);
  assert.ok(result.by_speaker['agent']! > 0.25);
  assert.ok(result.by_speaker['customer']! < -0.25);
  assert.is(result.overall, result.by_speaker['customer']);
});

test('without role labels, overall leaves out whoever opened the call (the agent or voice bot of an outbound call)', () => {
  const unlabelled = call.map((segment, index) => ({ ...segment, speaker: `speaker_${index === 0 ? 1 : 2}` }));
  const result = analyzeSentiment(unlabelled, 'en-IN');
  assert.ok(result.by_speaker['speaker_1']! > 0.25);
  assert.is(result.overall, result.by_speaker['speaker_2']);
  const monologue = call.map((segment) => ({ ...segment, speaker: 'speaker_1' }));
  assert.is(analyzeSentiment(monologue, 'en-IN').overall, analyzeSentiment(monologue, 'en-IN').by_speaker['speaker_1']);
  assert.equal(analyzeSentiment([], 'hi-IN'), { overall: 0, by_speaker: {} });
});

test('exasperation at repeated calls and refusing to talk are negative in every language', () => {
  const cases: [language: string, text: string][] = [
    ['en-IN', 'I get these calls every day'],
    ['en-IN', "I don't want to talk to a machine"],
    ['hi-IN', 'रोज़-रोज़ फ़ोन आते हैं'],
    ['hi-IN', 'मुझे मशीन से बात नहीं करनी'],
    ['hi-IN', 'Yaar roz roz call aate hain'],
    ['hi-IN', 'Nahi chahiye, kitni baar bolun'],
    ['mr-IN', 'मला मशीनशी बोलायचं नाही'],
    ['mr-IN', 'किती वेळा सांगायचं'],
    ['ta-IN', 'எனக்கு மெஷின் கிட்ட பேச விருப்பம் இல்லை'],
    ['ta-IN', 'எத்தனை தடவை சொல்றது'],
    ['te-IN', 'ఎన్ని సార్లు చెప్పాలి'],
    ['te-IN', 'నేను మెషిన్‌తో మాట్లాడను'],
  ];
  for (const [language, text] of cases) {
    assert.ok(textValence(text, language) <= -1.5, `${language}: "${text}" = ${textValence(text, language)}`);
  }
});

test('"that\'s the best I can do" is resignation, not praise', () => {
  assert.is(textValence("I can pay half now. That's the best I can do.", 'en-IN'), 0);
  assert.ok(textValence('This is the best plan', 'en-IN') > 0);
});

test.run();
