// The n-gram pieces of the call-domain language model: Witten-Bell estimation, back-off lookup, ARPA round trip,
// interpolation and renormalisation (every context's distribution sums to one), and the corpus text's words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { logProbability, parseArpa, toArpa, vocabulary, type BackoffModel } from '../../../../infra/speech/language-model/backoff-model.ts';
import { callDomainSentences, dictionaryFragments, spellNumber } from '../../../../infra/speech/language-model/call-domain-corpus.ts';
import { answerGrammar, answerKeyphrases, expectedPhrases } from '../../../../infra/speech/language-model/answer-grammar.ts';
import { interpolateModels } from '../../../../infra/speech/language-model/interpolate.ts';
import { estimateWittenBell } from '../../../../infra/speech/language-model/witten-bell.ts';
import { loanRenewalScript } from '../../../support/scripts.ts';

const TEXT = [
  'yes go ahead',
  'yes i am interested',
  'no i am not interested',
  'call me later',
  'call me tomorrow',
  'i am busy call me later',
].map((line) => line.split(' '));

/** Σ p(w | context) over the vocabulary and </s>. */
function mass(model: BackoffModel, context: string[]): number {
  return vocabulary(model).reduce((sum, word) => sum + 10 ** logProbability(model, context, word), 0);
}

test('Witten-Bell: every context sums to one, unigram to trigram', () => {
  const model = estimateWittenBell(TEXT);
  assert.is(model.order, 3);
  for (const context of [[], ['<s>'], ['call'], ['call', 'me'], ['<s>', 'yes'], ['am', 'not'], ['later'], ['unseen', 'words']]) {
    assert.ok(Math.abs(mass(model, context) - 1) < 1e-9, `context "${context.join(' ')}" sums to ${mass(model, context)}`);
  }
});

test('Witten-Bell: seen continuations beat unseen ones, and counts the reserved mass right', () => {
  const model = estimateWittenBell(TEXT);
  // "call me" was followed by later (2) and tomorrow (1): T = 2, c = 3, so 3/5 goes to seen words directly.
  const bo = model.ngrams[1]!.get('call me')!.backoff;
  assert.ok(Math.abs(10 ** bo - 2 / 5) < 1e-9);
  assert.ok(logProbability(model, ['call', 'me'], 'later') > logProbability(model, ['call', 'me'], 'tomorrow'));
  assert.ok(logProbability(model, ['call', 'me'], 'tomorrow') > logProbability(model, ['call', 'me'], 'interested'));
  assert.is(logProbability(model, [], 'never-seen'), -99);
});

test('ARPA: written and read back to the same probabilities', () => {
  const model = estimateWittenBell(TEXT);
  const text = toArpa(model);
  assert.match(text, /^\\data\\\nngram 1=\d+\nngram 2=\d+\nngram 3=\d+\n/);
  assert.match(text, /\\end\\\n$/);
  const back = parseArpa(text);
  assert.is(back.order, 3);
  for (const context of [['<s>'], ['i', 'am'], ['me']]) {
    for (const word of ['later', 'interested', '</s>', 'yes']) {
      assert.ok(Math.abs(logProbability(back, context, word) - logProbability(model, context, word)) < 1e-5);
    }
  }
  assert.throws(() => parseArpa('hello'), /no \\data\\ section/);
  assert.throws(() => parseArpa('\\data\\\nngram 1=1\n\n\\1-grams:\n-1\n\\end\\\n'), /bad 1-gram/);
});

test('interpolation: the mix is a proper distribution and lies between its parts', () => {
  const domain = estimateWittenBell(TEXT);
  const general = estimateWittenBell(['the cat sat on the mat', 'i am here', 'call the doctor'].map((line) => line.split(' ')));
  const mixed = interpolateModels(domain, general, 0.6);
  for (const context of [[], ['<s>'], ['call'], ['i', 'am'], ['the', 'cat'], ['on', 'the']]) {
    assert.ok(Math.abs(mass(mixed, context) - 1) < 1e-6, `context "${context.join(' ')}" sums to ${mass(mixed, context)}`);
  }
  const p = (model: BackoffModel, context: string[], word: string) => 10 ** logProbability(model, context, word);
  // Listed in both parts: exactly the weighted sum.
  const expected = 0.6 * p(domain, ['call'], 'me') + 0.4 * p(general, ['call'], 'me');
  assert.ok(Math.abs(p(mixed, ['call'], 'me') - expected) < 1e-9);
  // A word only the general text has keeps (1 - λ) of its probability there.
  assert.ok(p(mixed, ['the'], 'cat') > 0.3 * p(general, ['the'], 'cat'));
  assert.throws(() => interpolateModels(domain, general, 1.5), /domainWeight/);
});

test('corpus: numbers spelled, unknown words and placeholders break fragments', () => {
  const dictionary = new Set(['would', 'you', 'like', 'to', 'renew', 'your', 'loan', 'of', 'rupees', 'twenty', 'five', 'thousand', 'hello', 'this', 'is', 'asha']);
  assert.equal(spellNumber(25000), ['twenty', 'five', 'thousand']);
  assert.equal(spellNumber(1_204_019), ['one', 'million', 'two', 'hundred', 'four', 'thousand', 'nineteen']);
  assert.equal(spellNumber(0), ['zero']);
  assert.equal(dictionaryFragments('Would you like to renew your loan of ₹25,000 rupees?', dictionary), [['would', 'you', 'like', 'to', 'renew', 'your', 'loan', 'of', 'twenty', 'five', 'thousand', 'rupees']]);
  assert.equal(dictionaryFragments('Hello {name}, this is Asha. Your EMI is due', dictionary), [['hello'], ['this', 'is', 'asha'], ['your'], ['is']]);
});

test('corpus: a script gives its prompts, route keywords and the replies its routes listen for', () => {
  const dictionary = new Set(['would', 'you', 'like', 'to', 'renew', 'your', 'loan', 'of', 'call', 'me', 'later', 'yes', 'go', 'ahead', 'stop', 'calling', 'wrong', 'number', 'my', 'script', 'phrase']);
  const sentences = callDomainSentences({ scripts: [loanRenewalScript()], scorecardPhrases: ['my script phrase'] }, dictionary).map((words) => words.join(' '));
  assert.ok(sentences.includes('would you like to renew your loan of'));
  assert.ok(sentences.includes('call me later'), 'callback_later replies');
  assert.ok(sentences.includes('stop calling'), 'stop_calling replies');
  assert.ok(sentences.includes('go ahead'));
  assert.ok(sentences.includes('my script phrase'));
  // The renewal script listens for no wrong_person route, so its replies are not in the text.
  assert.not.ok(sentences.includes('wrong number'));
});

test('answer grammar and keyphrases: the step\'s routes\' phrases, whole phrases only', () => {
  const dictionary = new Set(['yes', 'go', 'ahead', 'no', 'not', 'interested', 'call', 'me', 'later', 'busy', 'sure']);
  const step = loanRenewalScript().steps.find((candidate) => candidate.listen !== undefined)!;
  const phrases = expectedPhrases(step, dictionary);
  assert.ok(phrases.includes('go ahead') && phrases.includes('not interested') && phrases.includes('call me later'));
  // "i'm busy" has a word this dictionary lacks: dropped whole rather than cut to "busy".
  assert.ok(phrases.includes('busy'));
  assert.is(phrases.filter((phrase) => phrase === 'busy').length, 1);
  assert.is(answerGrammar(['yes', 'go ahead']), '#JSGF V1.0;\ngrammar answer;\npublic <answer> = ( yes | go ahead )+ ;\n');
  assert.is(answerKeyphrases(['yes', 'call me later']), 'yes /1e-2/\ncall me later /1e-18/\n');
  assert.throws(() => answerGrammar([]), /at least one phrase/);
});

test.run();
