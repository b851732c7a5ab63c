// The reader of Debian's binary trie language model, checked against sphinxbase itself: `sphinx_lm_eval`
// (Debian `sphinxbase-utils`) scores sentences with the same file, and our reading must give the same scores
// for sentences whose n-grams survive the pruning (common phrases), in sphinxbase's log base 1.0001 units.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTool } from '../../../../infra/speech/external-tool.ts';
import { logProbability, vocabulary } from '../../../../infra/speech/language-model/backoff-model.ts';
import { DEBIAN_GENERAL_LM, generalModel } from '../../../../infra/speech/language-model/call-domain-model.ts';
import { readSphinxTrieModel } from '../../../../infra/speech/language-model/sphinx-trie.ts';

const UNIT = Math.log10(1.0001);
const SENTENCES = ['i would like to', 'yes go ahead', 'thank you'];

async function sphinxScore(sentence: string): Promise<number> {
  const { stdout, stderr } = await runTool('sphinx_lm_eval', ['-lm', DEBIAN_GENERAL_LM, '-text', `<s> ${sentence}`], { timeoutMs: 60_000 });
  const match = /lm score: (-?\d+)/.exec(stdout.toString('utf8') + stderr);
  assert.ok(match, 'sphinx_lm_eval printed a score');
  return Number(match[1]);
}

test('the file read with its own back-off weights scores sentences as sphinxbase does', async () => {
  const model = await readSphinxTrieModel(DEBIAN_GENERAL_LM, { maxBigrams: 300_000, maxTrigrams: 150_000, renormalize: false });
  assert.is(model.ngrams[0]!.size, 72_547);
  for (const sentence of SENTENCES) {
    const words = ['<s>', ...sentence.split(' ')];
    let ours = 0;
    for (let i = 1; i < words.length; i += 1) ours += logProbability(model, words.slice(0, i), words[i]!);
    const theirs = await sphinxScore(sentence);
    assert.ok(Math.abs(ours / UNIT - theirs) < 30, `${sentence}: ours ${Math.round(ours / UNIT)}, sphinxbase ${theirs}`);
  }
});

test('the pruned general model (renormalised) is a proper distribution', async () => {
  const model = await generalModel();
  assert.ok(model.ngrams[1]!.size <= 300_100 && model.ngrams[2]!.size <= 150_100);
  const words = vocabulary(model);
  for (const context of [['<s>'], ['the'], ['thank', 'you'], ['zyuganov']]) {
    const mass = words.reduce((sum, word) => sum + 10 ** logProbability(model, context, word), 0);
    assert.ok(Math.abs(mass - 1) < 1e-3, `context "${context.join(' ')}" sums to ${mass}`);
  }
});

test.run();
