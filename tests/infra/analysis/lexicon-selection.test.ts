import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lexiconKeysForWords } from '../../../domain/shared/text/lexicon-selection.ts';
import { tokenize } from '../../../domain/shared/text/normalize.ts';
import { scriptOfWord } from '../../../domain/shared/text/script.ts';

const keys = (text: string, language: string) => lexiconKeysForWords(language, tokenize(text, language)).sort();

test('scripts are told apart per word', () => {
  assert.is(scriptOfWord('accha'), 'latin');
  assert.is(scriptOfWord('अच्छा'), 'devanagari');
  assert.is(scriptOfWord('நல்லது'), 'tamil');
  assert.is(scriptOfWord('బాగుంది'), 'telugu');
  assert.is(scriptOfWord('2024'), 'other');
});

test('Latin text in hi and en calls uses English and Hinglish lists', () => {
  assert.equal(keys('bahut badhiya', 'hi-IN'), ['en', 'hi-latn']);
  assert.equal(keys('very good', 'en-IN'), ['en', 'hi-latn']);
  assert.equal(keys('very good', 'ta-IN'), ['en']);
});

test('Devanagari is Marathi in mr calls and Hindi otherwise; code-mixed text gets both scripts', () => {
  assert.equal(keys('खूप छान', 'mr-IN'), ['mr']);
  assert.equal(keys('बहुत अच्छा', 'hi-IN'), ['hi']);
  assert.equal(keys('मेरा EMI bounce हो गया', 'hi-IN'), ['en', 'hi', 'hi-latn']);
  assert.equal(keys('சர்வீஸ் super', 'ta-IN'), ['en', 'ta']);
  assert.equal(keys('123', 'te-IN'), []);
});

test.run();
