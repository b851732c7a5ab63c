import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findPair, findPhrase } from '../../../domain/compliance/phrase-finder.ts';

// Given an agent's sentence, when a lexicon list is searched with negation scope, then denials do not count and
// conditions do not swallow their consequence.

const claim = (text: string, language: string) => findPhrase(text, language, 'falseClaims', { negatable: true });
const threat = (text: string, language: string) => findPhrase(text, language, 'threats', { negatable: true, yieldsTo: 'falseClaims' });

const negated: [language: string, text: string][] = [
  ['en-IN', 'The police will not come to your house.'],
  ['en-IN', "The police won't come."],
  ['en-IN', 'Nobody will arrest you.'],
  ['en-IN', 'There is no FIR against you.'],
  ['en-IN', 'There is no question of police or arrest.'],
  ['hi-IN', 'पुलिस नहीं आएगी।'],
  ['hi-IN', 'कोई गिरफ्तारी नहीं होगी।'],
  ['hi-IN', 'ना पुलिस आएगी ना जेल होगी।'],
  ['hi-IN', 'police nahi aayegi'],
  ['hi-IN', 'jail ki koi baat nahi hai'],
  ['ta-IN', 'போலீஸ் வராது.'],
  ['ta-IN', 'யாரும் கைது பண்ண மாட்டாங்க.'],
  ['te-IN', 'పోలీసులు రారు.'],
  ['te-IN', 'ఎవరూ అరెస్ట్ చేయరు.'],
  ['mr-IN', 'पोलीस येणार नाहीत.'],
  ['mr-IN', 'कोणीही अटक करणार नाही.'],
];

for (const [language, text] of negated) {
  test(`a denied claim is not a claim (${language}): "${text}"`, () => {
    assert.is(claim(text, language), null);
  });
}

const conditional: [language: string, text: string][] = [
  ['en-IN', "If you don't pay, the police will come."],
  ['en-IN', "if you don't pay police will come to your house"],
  ['hi-IN', 'अगर पैसे नहीं दिए तो पुलिस आएगी।'],
  ['hi-IN', 'पैसे नहीं दिए तो पुलिस आएगी'],
  ['hi-IN', 'paisa nahi diya to police aayegi'],
  ['hi-IN', 'agar paise nahi diye police ghar aayegi'],
  ['ta-IN', 'பணம் கட்டலைன்னா போலீஸ் வரும்.'],
  ['te-IN', 'డబ్బులు కట్టకపోతే పోలీసులు వస్తారు.'],
  ['mr-IN', 'पैसे भरले नाहीत तर पोलीस येतील.'],
];

for (const [language, text] of conditional) {
  test(`a negator in the condition does not negate the consequence (${language}): "${text}"`, () => {
    assert.ok(claim(text, language));
  });
}

test('a threat that carries its own negator is still a threat ("छोड़ेंगे नहीं", "விட மாட்டோம்")', () => {
  assert.equal(threat('तुम्हें छोड़ेंगे नहीं।', 'hi-IN'), { phrase: 'छोड़ेंगे नहीं', lexicon: 'hi' });
  assert.ok(threat('உன்னை சும்மா விட மாட்டோம்.', 'ta-IN'));
  assert.ok(threat('tujhe chhodenge nahi', 'hi-IN'));
});

test('"I am not threatening you" is not a threat; "this is a threat" is', () => {
  assert.is(threat('I am not threatening you.', 'en-IN'), null);
  assert.is(threat('मैं आपको धमकी नहीं दे रहा हूँ।', 'hi-IN'), null);
  assert.ok(threat('This is a threat, pay today.', 'en-IN'));
});

test('a clause with a police claim counts as a false claim, not also as the lender\'s own threat', () => {
  assert.is(threat('The police will come to your house.', 'en-IN'), null);
  assert.ok(claim('The police will come to your house.', 'en-IN'));
  assert.ok(threat('We will come to your house.', 'en-IN'));
});

test('NFC, nukta and zero-width joiners do not hide a phrase', () => {
  assert.ok(claim('पुलिस आपको गिरफ़्तार करेगी', 'hi-IN'), 'nukta');
  assert.ok(claim('पुलिस आपको गिरफ़्तार करेगी'.normalize('NFD'), 'hi-IN'), 'decomposed');
  assert.ok(claim('पु\u200Dलिस आएगी', 'hi-IN'), 'zero-width joiner');
  assert.ok(findPhrase('క్యాష్\u200Cబ్యాక్ ఆఫర్', 'te-IN', 'promotional', { negatable: true }), 'ZWNJ in Telugu');
  assert.ok(claim('POLICE WILL ARREST YOU', 'en-IN'), 'case');
});

test('a fused postposition matches a suffix pattern (Marathi "मुदतीबद्दल")', () => {
  assert.equal(findPhrase('तुमच्या एफडीच्या मुदतीबद्दल', 'mr-IN', 'purpose', { negatable: false }), { phrase: '*बद्दल', lexicon: 'mr' });
});

test('service phrases that contain an offer word are not promotional ("settlement offer")', () => {
  assert.is(findPhrase('The one time settlement offer is approved.', 'en-IN', 'promotional', { negatable: true, except: 'notPromotional' }), null);
  assert.ok(findPhrase('We have a special offer on a new card.', 'en-IN', 'promotional', { negatable: true, except: 'notPromotional' }));
});

test('English words in a Tamil call are read with the English list', () => {
  assert.equal(claim('நாளைக்குள்ள கட்டலைன்னா police complaint குடுப்போம்', 'ta-IN'), { phrase: 'police complaint', lexicon: 'en' });
});

const exposure = (text: string, language: string) =>
  findPair(text, language, 'exposureTargets', 'exposureActions', { negatable: true, yieldsTo: 'falseClaims' });

test('an exposure threat in other words: someone of the borrower\'s circle and a telling verb in one clause', () => {
  assert.ok(exposure("We'll make sure your kids hear about it at school.", 'en-IN'));
  assert.ok(exposure('तुम्हारे बच्चों के स्कूल में जाकर बताएंगे।', 'hi-IN'));
  assert.ok(exposure('tumhare bachchon ke school mein jaake bata denge', 'hi-IN'));
  assert.ok(exposure('உங்க பசங்க ஸ்கூல்ல வந்து சொல்லுவோம்.', 'ta-IN'));
  assert.ok(exposure('మీ పిల్లల స్కూల్ కి వచ్చి చెప్తాం.', 'te-IN'));
  assert.ok(exposure('तुमच्या मुलांच्या शाळेत येऊन सांगू.', 'mr-IN'));
});

test('the same words denied, or in separate clauses, are not an exposure threat', () => {
  assert.is(exposure('We will never tell your family anything.', 'en-IN'), null);
  assert.is(exposure('Your wife picked up earlier. Please tell me a date.', 'en-IN'), null);
});

test.run();
