// Builds the call-domain language model PocketSphinx decodes with: a Witten-Bell trigram model of the workspace's
// call text (call-domain-corpus.ts) linearly interpolated with the general US English model Debian ships (read
// from its binary trie and pruned to a bounded size, sphinx-trie.ts), written as ARPA and converted to
// sphinxbase's binary format with `sphinx_lm_convert` (Debian `sphinxbase-utils`) so each decoder process loads
// it as fast as the stock model. The general model keeps all 72,547 words, so speech outside the scripts is
// still recognised (with fewer n-grams than the stock model: see docs/speech.md for the measured cost).
//
// Cost (measured on the 2-core machine): the general model is read and pruned once per process (about 10-20 s,
// 150 MB while reading); each domain model then takes a few seconds to mix and convert and about 10 MB on disk.
// Callers run this off the event loop (language-model-thread.ts) and cache the result per text.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runToolHere } from '../external-tool.ts';
import { toArpa, type BackoffModel } from './backoff-model.ts';
import { interpolateModels } from './interpolate.ts';
import { readSphinxTrieModel, type TriePruning } from './sphinx-trie.ts';
import { estimateWittenBell } from './witten-bell.ts';

export const DEBIAN_GENERAL_LM = '/usr/share/pocketsphinx/model/en-us/en-us.lm.bin';
export const DEBIAN_DICTIONARY = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

/** Measured in docs/speech.md ("Call-domain language model"). */
export const DEFAULT_DOMAIN_WEIGHT = 0.2;
export const DEFAULT_GENERAL_PRUNING: TriePruning = { maxBigrams: 300_000, maxTrigrams: 150_000 };
/** Bound on the domain text: more than this many sentences are cut (scripts are far smaller). */
export const MAX_DOMAIN_SENTENCES = 20_000;

export interface CallDomainModelOptions {
  /** Where built models are kept (one pair of files per distinct text and weight). */
  cacheDirectory: string;
  generalModelPath?: string;
  domainWeight?: number;
  pruning?: TriePruning;
}

const generalModels = new Map<string, Promise<BackoffModel>>();

/** The pruned general model, read once per process and pruning. */
export function generalModel(path: string = DEBIAN_GENERAL_LM, pruning: TriePruning = DEFAULT_GENERAL_PRUNING): Promise<BackoffModel> {
  const key = `${path}\u0000${pruning.maxBigrams}\u0000${pruning.maxTrigrams}`;
  let model = generalModels.get(key);
  if (model === undefined) {
    model = readSphinxTrieModel(path, pruning);
    model.catch(() => generalModels.delete(key));
    generalModels.set(key, model);
  }
  return model;
}

/**
 * Path of the binary model for these sentences (built unless already in the cache directory). `domainWeight` 0
 * gives the pruned general model alone (for comparisons).
 */
export async function buildCallDomainModel(sentences: readonly (readonly string[])[], options: CallDomainModelOptions): Promise<string> {
  const weight = options.domainWeight ?? DEFAULT_DOMAIN_WEIGHT;
  const pruning = options.pruning ?? DEFAULT_GENERAL_PRUNING;
  const generalPath = options.generalModelPath ?? DEBIAN_GENERAL_LM;
  const bounded = sentences.slice(0, MAX_DOMAIN_SENTENCES);
  const key = createHash('sha256')
    .update(JSON.stringify({ v: 1, weight, pruning, generalPath, sentences: bounded }))
    .digest('hex')
    .slice(0, 32);
  const binPath = join(options.cacheDirectory, `call-domain-${key}.lm.bin`);
  if (existsSync(binPath)) return binPath;
  await mkdir(options.cacheDirectory, { recursive: true });
  const general = await generalModel(generalPath, pruning);
  const mixed = bounded.length === 0 || weight === 0 ? general : interpolateModels(estimateWittenBell(bounded), general, weight);
  const arpaPath = join(options.cacheDirectory, `call-domain-${key}.${process.pid}.arpa`);
  const partialBin = `${binPath}.${process.pid}.partial`;
  try {
    await writeFile(arpaPath, toArpa(mixed));
    await runToolHere('sphinx_lm_convert', ['-i', arpaPath, '-o', partialBin, '-ofmt', 'bin'], { timeoutMs: 120_000 });
    await rename(partialBin, binPath);
  } finally {
    await rm(arpaPath, { force: true });
    await rm(partialBin, { force: true });
  }
  return binPath;
}
