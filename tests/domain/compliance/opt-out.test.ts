import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectOptOut } from '../../../domain/compliance/post-call-rules.ts';
import { LANGUAGES, transcript } from './fixtures.ts';

// Given a call, when the customer asks not to be called again, then detectOptOut returns that turn as evidence.

for (const lines of LANGUAGES) {
  test(`${lines.name}: the customer's "don't call me" is an opt-out, with its turn as evidence`, () => {
    const segments = transcript([['agent', lines.intro], ['customer', lines.optOut], ['agent', lines.yes]]);
    assert.equal(detectOptOut(segments, lines.language), {
      speaker: 'customer',
      start_time: segments[1]!.start_time,
      end_time: segments[1]!.end_time,
      text: lines.optOut,
    });
  });

  test(`${lines.name}: "call me later" is not an opt-out, nor is the agent saying the words`, () => {
    assert.is(detectOptOut(transcript([['agent', lines.intro], ['customer', lines.notOptOut]]), lines.language), null);
    assert.is(detectOptOut(transcript([['agent', lines.optOut], ['customer', lines.yes]]), lines.language), null);
  });
}

test('"don\'t call me at the office" limits when to call; it is not an opt-out', () => {
  const segments = transcript([['agent', 'Hello, Anita from Crescent Capital.'], ['customer', "Please don't call me at the office, call after seven."]]);
  assert.is(detectOptOut(segments, 'en-IN'), null);
});

test('an opt-out in any turn counts, not only the first', () => {
  const segments = transcript([['agent', 'Hello.'], ['customer', 'Yes?'], ['agent', 'About your card.'], ['customer', 'Stop calling me.']]);
  assert.is(detectOptOut(segments, 'en-IN')!.text, 'Stop calling me.');
});

const stopRequests: [language: string, text: string][] = [
  ['en-IN', 'Just stop ringing me, I will pay when I can.'],
  ['hi-IN', 'इस नंबर पर फोन करना बंद करो।'],
  ['hi-IN', 'is number pe phone karna band karo'],
  ['ta-IN', 'இந்த நம்பருக்கு போன் பண்றத நிறுத்துங்க.'],
  ['te-IN', 'ఈ నంబర్ కి కాల్స్ ఆపండి.'],
  ['mr-IN', 'या नंबरवर फोन करणं बंद करा.'],
];

for (const [language, text] of stopRequests) {
  test(`an opt-out in other words, a call word and a stop request (${language}): "${text}"`, () => {
    assert.ok(detectOptOut(transcript([['agent', 'Hello.'], ['customer', text]]), language));
  });
}

test('a switched-off phone is not a stop request', () => {
  assert.is(detectOptOut(transcript([['agent', 'नमस्ते।'], ['customer', 'मेरा फोन बंद था।']]), 'hi-IN'), null);
});


// Given a customer who refuses calls in words of their own ("I don't want any calls", "take my number off your
// list") or who only limits when to call ("not during office hours"), when opt-outs are detected, then the first
// is an opt-out in every language and the second is not.

const refusals: [language: string, text: string][] = [
  ['en-IN', 'I do not want to receive any calls from your company.'],
  ['hi-IN', 'मुझे आपकी कोई कॉल नहीं चाहिए।'],
  ['hi-IN', 'Mujhe aapki koi call nahi chahiye.'],
  ['mr-IN', 'मला तुमचे फोन नको आहेत.'],
  ['ta-IN', 'எனக்கு உங்க அழைப்பு எதுவும் வேண்டாம்.'],
  ['te-IN', 'నాకు మీ కాల్స్ వద్దు.'],
  ['hi-IN', 'मेरा नंबर अपनी लिस्ट से हटाइए।'],
  ['hi-IN', 'Mera number list se hatao.'],
  ['mr-IN', 'माझा नंबर यादीतून काढा.'],
  ['ta-IN', 'என் நம்பரை லிஸ்ட்ல இருந்து நீக்குங்க.'],
  ['te-IN', 'నా నంబర్ లిస్ట్ నుంచి తీసేయండి.'],
];

for (const [language, text] of refusals) {
  test(`a refusal of calls in other words is an opt-out (${language}): "${text}"`, () => {
    assert.ok(detectOptOut(transcript([['agent', 'Hello.'], ['customer', text]]), language));
  });
}

const timeLimits: [language: string, text: string][] = [
  ['en-IN', "Don't call me during working hours."],
  ['hi-IN', 'सुबह फोन मत कीजिए।'],
  ['hi-IN', 'Office time mein call mat karo.'],
  ['mr-IN', 'सकाळी फोन करू नका.'],
  ['ta-IN', 'காலையில போன் பண்ணாதீங்க.'],
  ['te-IN', 'ఉదయం ఫోన్ చేయకండి.'],
];

for (const [language, text] of timeLimits) {
  test(`a request that names when to call limits the calls; it is not an opt-out (${language}): "${text}"`, () => {
    assert.is(detectOptOut(transcript([['agent', 'Hello.'], ['customer', text]]), language), null);
  });
}

test('"from now on, don\'t call" names no time: it is an opt-out', () => {
  assert.ok(detectOptOut(transcript([['agent', 'नमस्ते।'], ['customer', 'अब से मुझे फोन मत करना।']]), 'hi-IN'));
  assert.ok(detectOptOut(transcript([['agent', 'Hello.'], ['customer', 'Abhi se mujhe call mat karna.']]), 'hi-IN'));
});

// Given a customer who names the do-not-call list, or who defers the call to later in the same turn, when opt-outs
// are detected, then the first is an opt-out and the second is not.

const doNotCallList: [language: string, text: string][] = [
  ['en-IN', 'Add me to your DND list, please.'],
  ['hi-IN', 'मुझे अपनी डू नॉट कॉल सूची में रखिए।'],
  ['hi-IN', 'Mujhe apni do not call list mein rakho.'],
  ['mr-IN', 'माझं नाव डू नॉट कॉल यादीत टाका.'],
  ['ta-IN', 'என்னை டூ நாட் கால் பட்டியல்ல சேருங்க.'],
  ['te-IN', 'నన్ను డూ నాట్ కాల్ జాబితాలో చేర్చండి.'],
];

for (const [language, text] of doNotCallList) {
  test(`naming the do-not-call list is an opt-out (${language}): "${text}"`, () => {
    assert.ok(detectOptOut(transcript([['agent', 'Hello.'], ['customer', text]]), language));
  });
}

const deferrals: [language: string, text: string][] = [
  ['en-IN', "Don't call me now, call me later in the evening."],
  ['hi-IN', 'अभी फोन मत करो, बाद में करना।'],
  ['hi-IN', 'Abhi phone mat karo, baad mein karna.'],
  ['mr-IN', 'आत्ता फोन करू नका, नंतर करा.'],
  ['ta-IN', 'இப்போ போன் பண்ணாதீங்க, அப்புறம் பண்ணுங்க.'],
  ['te-IN', 'ఇప్పుడు ఫోన్ చేయకండి, తర్వాత చేయండి.'],
];

for (const [language, text] of deferrals) {
  test(`"don't call now, call later" defers the call; it is not an opt-out (${language}): "${text}"`, () => {
    assert.is(detectOptOut(transcript([['agent', 'Hello.'], ['customer', text]]), language), null);
  });
}

test.run();
