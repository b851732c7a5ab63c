import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalizeForScoring, wordErrorRate } from '../../../infra/speech/wer.ts';

test('counts substitutions, deletions and insertions against the reference length', () => {
  assert.equal(wordErrorRate('one two three four', 'one too three four five'), {
    substitutions: 1,
    deletions: 0,
    insertions: 1,
    referenceWords: 4,
    rate: 0.5,
  });
  assert.equal(wordErrorRate('one two three four', 'one three four').deletions, 1);
});

test('case, punctuation and contractions do not count as errors', () => {
  assert.is(wordErrorRate("Good morning, I am calling. Don't worry!", "good morning i'm calling do not worry").rate, 0);
});

test('Indic words keep their vowel signs', () => {
  assert.equal(normalizeForScoring('नमस्ते, आप कैसे हैं?'), ['नमस्ते', 'आप', 'कैसे', 'हैं']);
  assert.is(wordErrorRate('வணக்கம் நண்பரே', 'வணக்கம் நண்பர்').substitutions, 1);
});

test('empty texts', () => {
  assert.is(wordErrorRate('', '').rate, 0);
  assert.is(wordErrorRate('hello', '').rate, 1);
  assert.is(wordErrorRate('', 'hello there').rate, 2);
});

test.run();
