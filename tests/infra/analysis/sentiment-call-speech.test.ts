/**
 * Sentiment as a person reads an Indian call (issue 18), per language: the agent's courtesy is not the customer's
 * mood, negation and intensifiers, dismissive repeated agreement and sarcasm, code-mixing, and the end of the
 * call weighing more than its start. Given a transcript, when it is scored, then the bucket is what a person
 * would say.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { analyzeSentiment, recencyWeights, sentimentBucket, textValence } from '../../../infra/analysis/sentiment.ts';
import type { TranscriptSegment } from '../../../infra/analysis/port.ts';

function callOf(...turns: [speaker: 'agent' | 'customer', text: string][]): TranscriptSegment[] {
  return turns.map(([speaker, text], index) => ({ speaker, text, start_time: index * 5, end_time: index * 5 + 4 }));
}

const bucketOf = (segments: TranscriptSegment[], language: string) => sentimentBucket(analyzeSentiment(segments, language).overall);
const turnBucket = (text: string, language: string) => bucketOf(callOf(['customer', text]), language);

test('given an agent thanking effusively and a customer who only acknowledges, then overall is neutral in every language', () => {
  const cases: [language: string, agent: string, customer: string][] = [
    ['en-IN', 'Thank you so much sir, it was a pleasure, have a wonderful day!', 'Okay.'],
    ['hi-IN', 'बहुत बहुत धन्यवाद सर, आपका दिन शुभ हो, हमें आपकी सेवा करके बहुत खुशी हुई।', 'ठीक है।'],
    ['hi-IN', 'Bahut bahut shukriya sir, aapka din shubh ho!', 'Haan, theek hai.'],
    ['mr-IN', 'खूप खूप धन्यवाद सर, तुमचा दिवस छान जावो!', 'बरं.'],
    ['ta-IN', 'ரொம்ப நன்றி சார், உங்கள் நாள் இனிமையாக இருக்கட்டும்!', 'சரி.'],
    ['te-IN', 'చాలా ధన్యవాదాలు సార్, మీ రోజు బాగుండాలి!', 'సరే.'],
  ];
  for (const [language, agent, customer] of cases) {
    const result = analyzeSentiment(callOf(['agent', agent], ['customer', customer]), language);
    assert.is(sentimentBucket(result.by_speaker['agent']!), 'positive', `${language}: the agent's own score`);
    assert.is(sentimentBucket(result.overall), 'neutral', `${language}: ${customer}`);
  }
});

test('given a negated positive ("not happy", "खुश नहीं", "खूश नाही", "இல்லை", "లేదు"), then the turn is negative', () => {
  const cases: [language: string, text: string][] = [
    ['en-IN', 'I am not happy with this at all.'],
    ['hi-IN', 'मैं आपकी सर्विस से खुश नहीं हूँ।'],
    ['hi-IN', 'Main aapki service se khush nahi hoon.'],
    ['mr-IN', 'मी तुमच्या सेवेवर खूश नाही.'],
    ['ta-IN', 'உங்க சேவையில எனக்கு திருப்தி இல்லை.'],
    ['te-IN', 'మీ సర్వీస్‌తో నేను సంతోషంగా లేను.'],
  ];
  for (const [language, text] of cases) assert.is(turnBucket(text, language), 'negative', `${language}: ${text}`);
});

test('given an intensifier ("bahut", "खूप", "ரொம்ப", "అస్సలు", "अजिबात"), then the same word counts more in every language', () => {
  const cases: [language: string, plain: string, intensified: string][] = [
    ['hi-IN', 'service kharab hai', 'service bahut kharab hai'],
    ['mr-IN', 'हे बरोबर नाही', 'हे अजिबात बरोबर नाही'],
    ['mr-IN', 'सेवा वाईट आहे', 'सेवा खूप वाईट आहे'],
    ['ta-IN', 'சர்வீஸ் மோசம்', 'சர்வீஸ் ரொம்ப மோசம்'],
    ['te-IN', 'ఇది బాలేదు', 'ఇది అస్సలు బాలేదు'],
    ['en-IN', 'that was helpful', 'that was really helpful'],
  ];
  for (const [language, plain, intensified] of cases) {
    const a = textValence(plain, language);
    const b = textValence(intensified, language);
    assert.ok(Math.sign(a) === Math.sign(b) && Math.abs(b) > Math.abs(a), `${language}: ${plain} (${a}) vs ${intensified} (${b})`);
  }
});

test('given a dismissive repeated agreement with annoyance, then the turn is negative in every language', () => {
  const cases: [language: string, text: string][] = [
    ['en-IN', 'Yeah yeah, fine. I get these calls again and again.'],
    ['hi-IN', 'हाँ हाँ ठीक है, बार बार एक ही बात मत बताइए।'],
    ['hi-IN', 'Haan haan theek hai, roz roz yahi sunna padta hai.'],
    ['mr-IN', 'हो हो, कळलं. रोज रोज तेच सांगता.'],
    ['ta-IN', 'சரி சரி, தினம் தினம் இதையே சொல்றீங்க.'],
    ['te-IN', 'సరే సరే, పదే పదే అదే చెబుతున్నారు.'],
  ];
  for (const [language, text] of cases) assert.is(turnBucket(text, language), 'negative', `${language}: ${text}`);
});

test('given "haan haan, bilkul" before praise and a refusal, then the praise reads as sarcasm', () => {
  assert.is(turnBucket('Haan haan, bilkul, bahut badhiya scheme hai. Humein nahi chahiye.', 'hi-IN'), 'negative');
  assert.is(turnBucket('हाँ हाँ, बिल्कुल, बहुत बढ़िया प्लान है। मुझे नहीं लेना।', 'hi-IN'), 'negative');
  assert.is(turnBucket('Yeah yeah, sure, wonderful plan. I am not buying it.', 'en-IN'), 'negative');
});

test('given a repeated agreement alone, then it stays neutral; given eager repetition with thanks, then positive', () => {
  assert.is(turnBucket('சரி சரி.', 'ta-IN'), 'neutral');
  assert.is(turnBucket('ఓకే ఓకే.', 'te-IN'), 'neutral');
  assert.is(turnBucket('हाँ हाँ, ज़रूर भेजिए। बहुत बहुत शुक्रिया, बहुत अच्छा लगा।', 'hi-IN'), 'positive');
  assert.is(turnBucket('हो हो, नक्की. खूप छान, धन्यवाद.', 'mr-IN'), 'positive');
});

test('given praise or a pleasantry before a complaint in the same turn, then it does not count as positive', () => {
  const cases: [language: string, text: string][] = [
    ['en-IN', 'Oh lovely, great service. My refund is pending for a month and nobody listens.'],
    ['hi-IN', 'वाह, बहुत बढ़िया सर्विस है। तीन हफ़्ते से पैसे अटके हैं, मैं बहुत परेशान हूँ।'],
    ['hi-IN', 'Wah, bahut badhiya service hai. Teen hafte se pareshan hoon, koi sunta hi nahi.'],
    ['mr-IN', 'बरं झालं फोन केलात. माझे पैसे दोनदा कापले, खूप त्रास झाला.'],
    ['ta-IN', 'நல்லவேளை கூப்பிட்டீங்க. என் பணம் இன்னும் வரல, ரொம்ப கோபமா இருக்கு.'],
    ['te-IN', 'మంచిది ఫోన్ చేశారు. నా డబ్బులు ఇంకా రాలేదు, చాలా కోపంగా ఉంది.'],
  ];
  for (const [language, text] of cases) assert.is(turnBucket(text, language), 'negative', `${language}: ${text}`);
  // A turn that ends pleased keeps its praise: the complaint came first.
  assert.is(turnBucket('There was a problem last month. Now it is sorted, great work, thank you!', 'en-IN'), 'positive');
});

test('given the same two customer turns in either order, then the one said last decides the sign', () => {
  const pairs: [language: string, upset: string, pleased: string][] = [
    ['en-IN', 'I was very upset about that charge.', 'Now I am very happy.'],
    ['hi-IN', 'उस चार्ज से मैं बहुत परेशान था।', 'अब मैं बहुत खुश हूँ।'],
    ['hi-IN', 'Us charge se main bahut pareshan tha.', 'Ab main bahut khush hoon.'],
    ['mr-IN', 'त्या शुल्कामुळे मला खूप त्रास झाला.', 'आता मला खूप आनंद झाला.'],
    ['ta-IN', 'அந்த கட்டணத்தால் ரொம்ப கஷ்டமா இருந்தது.', 'இப்போ ரொம்ப சந்தோஷம்.'],
    ['te-IN', 'ఆ ఛార్జ్ వల్ల చాలా బాధపడ్డాను.', 'ఇప్పుడు చాలా సంతోషం.'],
  ];
  for (const [language, upset, pleased] of pairs) {
    const endsPleased = analyzeSentiment(callOf(['customer', upset], ['agent', 'Okay.'], ['customer', pleased]), language);
    const endsUpset = analyzeSentiment(callOf(['customer', pleased], ['agent', 'Okay.'], ['customer', upset]), language);
    assert.ok(endsPleased.overall > 0.25, `${language}: ends pleased = ${endsPleased.overall}`);
    assert.ok(endsUpset.overall < -0.25, `${language}: ends upset = ${endsUpset.overall}`);
  }
});

test('given a closing "thank you" after a refusal, then the courtesy is not magnified by coming last', () => {
  const call = callOf(['agent', 'Sir, an offer for you.'], ['customer', 'मुझे कुछ नहीं चाहिए।'], ['agent', 'ठीक है सर।'], ['customer', 'धन्यवाद।']);
  assert.is(bucketOf(call, 'hi-IN'), 'neutral');
});

test('given code-mixed turns, then words of both scripts count', () => {
  assert.is(turnBucket('Service bahut kharab hai, I am very upset.', 'hi-IN'), 'negative');
  assert.is(turnBucket('सर्विस बहुत बढ़िया है, really happy.', 'hi-IN'), 'positive');
  assert.is(turnBucket('சர்வீஸ் ரொம்ப worst, totally useless.', 'ta-IN'), 'negative');
  assert.is(turnBucket('చాలా happy గా ఉంది, thank you so much.', 'te-IN'), 'positive');
  assert.is(turnBucket('खूप छान, very helpful.', 'mr-IN'), 'positive');
});

test('recency weights run from 1 for the first turn to 2 for the last', () => {
  assert.equal(recencyWeights(1), [1]);
  assert.equal(recencyWeights(3), [1, 1.5, 2]);
});

test('given a curt opt-out without any emotion word, then the customer is negative in every language', () => {
  const cases: [language: string, text: string][] = [
    ['en-IN', 'Remove my number from your list. Do not call me again.'],
    ['hi-IN', 'मेरा नंबर अपनी लिस्ट से हटा दीजिए। दोबारा फ़ोन मत करना।'],
    ['hi-IN', 'Mera number list se hatao. Dobara call mat karna.'],
    ['mr-IN', 'माझा नंबर यादीतून काढा. परत फोन करू नका.'],
    ['ta-IN', 'என் நம்பரை நீக்குங்க. கூப்பிடாதீங்க.'],
    ['te-IN', 'నా నంబర్ తీసేయండి. మళ్ళీ ఫోన్ చేయకండి.'],
  ];
  for (const [language, text] of cases) assert.is(turnBucket(text, language), 'negative', `${language}: ${text}`);
});

test('given a courteous opt-out with thanks, then it stays neutral; given one that already complains, then it is not counted twice', () => {
  assert.is(turnBucket('Please take my number off your calling list. Thank you.', 'en-IN'), 'neutral');
  assert.is(turnBucket('कृपया मेरा नंबर अपनी लिस्ट से हटा दीजिए। धन्यवाद।', 'hi-IN'), 'neutral');
  const polite = callOf(
    ['customer', "I'm not looking for anything. Please don't call this number again, kindly unsubscribe me from these calls."],
    ['customer', 'Thank you.'],
  );
  // "these calls" (-1.5) already says what the opt-out says: -1.5 + 1 for the thanks stays neutral.
  assert.is(bucketOf(polite, 'en-IN'), 'neutral');
});

test('given a dismissive repeated agreement in a turn that brushes the caller off, then it is negative in every language', () => {
  const cases: [language: string, text: string][] = [
    ['en-IN', "Yeah yeah, I'm busy, call me later."],
    ['hi-IN', 'हाँ हाँ, अभी मीटिंग में हूँ, बाद में फ़ोन करना।'],
    ['hi-IN', 'Haan haan theek hai, abhi time nahi hai, kal call karna.'],
    ['mr-IN', 'हो हो, आत्ता गाडी चालवतोय, नंतर फोन करा.'],
    ['ta-IN', 'ஆமா ஆமா, இப்போ பிஸியா இருக்கேன், அப்புறம் கூப்பிடுங்க.'],
    ['te-IN', 'అవును అవును, ఇప్పుడు మీటింగ్‌లో ఉన్నాను, తర్వాత ఫోన్ చేయండి.'],
  ];
  for (const [language, text] of cases) assert.is(turnBucket(text, language), 'negative', `${language}: ${text}`);
  // The same deferral without the repeated agreement is a neutral request.
  assert.is(turnBucket('अभी मीटिंग में हूँ, बाद में फ़ोन करना।', 'hi-IN'), 'neutral');
});

test('given a short question with a pleasant word, then it is not pleasure; after annoyance it is rhetorical and negative', () => {
  // Alone: asking is not being pleased.
  assert.is(turnBucket('Happy now?', 'en-IN'), 'neutral');
  assert.is(turnBucket('झालं समाधान?', 'mr-IN'), 'neutral');
  const cases: [language: string, annoyed: string, asked: string][] = [
    ['en-IN', "Yeah yeah, fine, I'll pay it. You don't need to call me five times a day.", 'The 10th. Happy now?'],
    ['hi-IN', 'रोज़ रोज़ फ़ोन करके परेशान मत करो, भर दूँगा।', 'दस तारीख़ को। अब खुश?'],
    ['mr-IN', 'हो हो, ठीक आहे, भरतो. सारखा सारखा फोन करू नका.', 'सोमवारी भरेन. झालं समाधान?'],
  ];
  for (const [language, annoyed, asked] of cases) {
    const call = callOf(['customer', annoyed], ['agent', 'When?'], ['customer', asked]);
    assert.is(bucketOf(call, language), 'negative', `${language}: ${asked}`);
  }
  // A pleased statement is still pleasure.
  assert.is(turnBucket('I am happy now.', 'en-IN'), 'positive');
});

test('given a Marathi word with the emphatic particle च, then it counts as the word', () => {
  assert.is(turnBucket('मग छानच आहे.', 'mr-IN'), 'positive');
  assert.is(turnBucket('मग छान आहे.', 'mr-IN'), 'positive');
});

test('given a worry in the past tense and relief in the same turn, then the worry is resolved; alone it still counts', () => {
  const resolved: [language: string, text: string][] = [
    ['en-IN', "Oh good, I was worried it hadn't reached you. Thanks."],
    ['hi-IN', 'चलो अच्छा हुआ, मैं परेशान था कि पहुँची या नहीं। शुक्रिया।'],
    ['hi-IN', 'Chalo accha hua, main pareshan tha ki pahunchi ya nahi. Shukriya.'],
    ['mr-IN', 'छान झालं, मी खूप वैतागलो होतो की पैसे गेले. धन्यवाद.'],
  ];
  for (const [language, text] of resolved) assert.is(turnBucket(text, language), 'positive', `${language}: ${text}`);
  assert.is(turnBucket('I was very upset about that charge.', 'en-IN'), 'negative');
  assert.is(turnBucket('उस चार्ज से मैं बहुत परेशान था।', 'hi-IN'), 'negative');
});

test.run();
