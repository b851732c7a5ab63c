import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { languageSubtag } from '../../../domain/shared/language.ts';
import { compilePhrase, containsPhrase, normalizeText, tokenize, tokenizeClauses } from '../../../domain/shared/text/normalize.ts';

test('languageSubtag takes the language part of a BCP-47 code', () => {
  assert.is(languageSubtag('hi-IN'), 'hi');
  assert.is(languageSubtag('EN-us'), 'en');
  assert.is(languageSubtag('ta'), 'ta');
});

test('normalizeText lower-cases, strips punctuation incl. danda, and drops inner apostrophes', () => {
  assert.is(normalizeText("Don't CALL me again!"), 'dont call me again');
  assert.is(normalizeText('बहुत अच्छा। धन्यवाद॥'), 'बहुत अच्छा धन्यवाद');
  assert.is(normalizeText('top-up, please…'), 'top up please');
});

test('normalizeText folds Devanagari nukta and candrabindu spelling variants', () => {
  assert.is(normalizeText('ज़रूर'), normalizeText('जरूर'));
  assert.is(normalizeText('फ़ोन'), normalizeText('फोन'));
  assert.is(normalizeText('हाँ'), normalizeText('हां'));
});

test('normalizeText drops zero-width joiners typed inside Telugu and Marathi words', () => {
  assert.is(normalizeText('సన్‌రైజ్'), 'సన్రైజ్');
  assert.is(normalizeText('अ‍ॅक्सिस'), 'अॅक्सिस');
});

test('tokenize splits words in all five scripts', () => {
  assert.equal(tokenize('मुझे लोन रिन्यू करना है।', 'hi-IN'), ['मुझे', 'लोन', 'रिन्यू', 'करना', 'है']);
  assert.equal(tokenize('உங்க சர்வீஸ் ரொம்ப மோசம்.', 'ta-IN'), ['உங்க', 'சர்வீஸ்', 'ரொம்ப', 'மோசம்']);
  assert.equal(tokenize('చాలా బాగుంది!', 'te-IN'), ['చాలా', 'బాగుంది']);
  assert.equal(tokenize('खूप छान, धन्यवाद.', 'mr-IN'), ['खूप', 'छान', 'धन्यवाद']);
  assert.equal(tokenize('Yes, speaking.', 'en-IN'), ['yes', 'speaking']);
});

test('tokenizeClauses breaks at commas, full stops and dandas', () => {
  assert.equal(tokenizeClauses('नहीं, बहुत अच्छा है। ठीक', 'hi'), [['नहीं'], ['बहुत', 'अच्छा', 'है'], ['ठीक']]);
});

test('containsPhrase matches case-insensitively on word boundaries only', () => {
  assert.ok(containsPhrase('Good Morning, sir!', 'good morning', 'en-IN'));
  assert.ok(containsPhrase('I said: HELLO.', 'hello', 'en-IN'));
  assert.not.ok(containsPhrase('Othello is a play', 'hello', 'en-IN'));
  assert.not.ok(containsPhrase('good, morning', 'morning good', 'en-IN'));
  assert.ok(containsPhrase('नमस्ते जी, मैं प्रिया', 'नमस्ते', 'hi-IN'));
  assert.not.ok(containsPhrase('नमस्तेजी', 'नमस्ते', 'hi-IN'));
  assert.ok(containsPhrase("don't do that", 'dont', 'en'));
});

test('containsPhrase supports stem* prefixes, also for stems written with a final virama', () => {
  assert.ok(containsPhrase('எனக்கு கோபமா இருக்கு', 'கோபம்*', 'ta-IN'));
  assert.ok(containsPhrase('எனக்கு கோபமா இருக்கு', 'கோப*', 'ta-IN'));
  assert.not.ok(containsPhrase('எனக்கு கோபமா இருக்கு', 'கோபம்', 'ta-IN'));
});

test('a phrase with no words never matches', () => {
  assert.equal(compilePhrase(' ?! ', 'en'), []);
  assert.not.ok(containsPhrase('anything', '...', 'en'));
});

test.run();
