// WER of the embedded recogniser with the stock US English language model against the call-domain model
// (infra/speech/language-model/), per evaluation set and condition, and the domain weight swept on the sets that
// show the trade-off. The domain text is the loan renewal script of the test suite (its prompts and routes, with
// the reply lexicon's phrases for its routes' intents); the `domain` set is the sandbox's English customer replies
// (infra/analysis/customer-reply-samples.ts, written independently of the lexicon), spoken by the customer voice.
//
//   npx tsx bench/speech-lm.ts [--sets domain,festival,librivox,cmu] [--conditions 16k,8k-mulaw,8k-alaw]
//                              [--weights 0.5] [--sweep] [--verbose]
// --sweep: no grammar/keyphrase rows, several domain weights (λ), 8 kHz µ-law unless --conditions says otherwise.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyReply } from '../infra/analysis/customer-reply.ts';
import { sampleReplies } from '../infra/analysis/customer-reply-samples.ts';
import type { Script } from '../domain/script-types.ts';
import { answerGrammar, answerKeyphrases, expectedPhrases } from '../infra/speech/language-model/answer-grammar.ts';
import { buildCallDomainModel, DEBIAN_DICTIONARY, DEFAULT_DOMAIN_WEIGHT } from '../infra/speech/language-model/call-domain-model.ts';
import { callDomainSentences } from '../infra/speech/language-model/call-domain-corpus.ts';
import { readDictionaryWords } from '../infra/speech/language-model/pronunciation-dictionary.ts';
import { ExternalToolError } from '../infra/speech/external-tool.ts';
import { PocketSphinxRecognizer } from '../infra/speech/pocketsphinx.ts';
import { synthesize } from '../infra/speech/synthesize.ts';
import { loanRenewalScript } from '../tests/support/scripts.ts';
import { SCRIPT } from './speech.ts';
import { CONDITIONS, realSpeechClips, scoreClips, syntheticClips, type Condition, type SetScore, type SpeechClip } from './speech-sets.ts';

export type LmClip = Omit<SpeechClip, 'set'> & { set: SpeechClip['set'] | 'domain' };

/** The sandbox's English customer replies, one clip each, in the customer voice. */
export async function domainReplyClips(): Promise<LmClip[]> {
  const clips: LmClip[] = [];
  for (const [intent, replies] of Object.entries(sampleReplies.en)) {
    for (const [index, text] of replies.entries()) {
      const speech = await synthesize(text, 'en-US', { voice: 'customer', sampleRate: 16_000 });
      clips.push({ id: `domain/${intent}-${index + 1}`, set: 'domain', reference: text, pcm16k: speech.pcm });
    }
  }
  return clips;
}

/** The renewal script with a wrong-person route too, so that every reply intent of the domain set is listened for. */
export function benchCallScript(): Script {
  const script = loanRenewalScript();
  const offer = script.steps.find((step) => step.listen !== undefined)!;
  offer.listen!.routes.push({ intent: 'wrong_person', disposition: 'not_reachable', next: 'bye' });
  return script;
}

export async function callDomainModelFor(cacheDirectory: string, domainWeight = DEFAULT_DOMAIN_WEIGHT): Promise<string> {
  const dictionary = await readDictionaryWords(DEBIAN_DICTIONARY);
  return buildCallDomainModel(callDomainSentences({ scripts: [benchCallScript()] }, dictionary), { cacheDirectory, domainWeight });
}

/** The listening step's grammar and keyphrase files, written into `directory`. */
export async function answerSearchFiles(directory: string): Promise<{ jsgf: string; kws: string }> {
  const dictionary = await readDictionaryWords(DEBIAN_DICTIONARY);
  const phrases = expectedPhrases(benchCallScript().steps.find((step) => step.listen !== undefined)!, dictionary);
  const jsgf = join(directory, 'answer.gram');
  const kws = join(directory, 'answer.kws');
  await writeFile(jsgf, answerGrammar(phrases));
  await writeFile(kws, answerKeyphrases(phrases));
  return { jsgf, kws };
}

/** Share of domain clips whose hypothesis the reply classifier puts in the clip's intent. */
export function intentAccuracy(score: SetScore): number {
  if (score.clips.length === 0) return 0;
  const right = score.clips.filter((clip) => classifyReply(clip.hypothesis, 'en').intent === /^domain\/([a-z_]+)-/.exec(clip.id)![1]).length;
  return right / score.clips.length;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** Runs the jobs two at a time (the machine has two cores). */
async function twoAtATime(jobs: (() => Promise<void>)[]): Promise<void> {
  await Promise.all([0, 1].map(async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await job();
  }));
}

/** scoreClips, retried when a decoder times out (a machine shared with other work can starve one for a minute). */
async function scoreWithRetry(clips: SpeechClip[], condition: Condition, recognizer: PocketSphinxRecognizer): Promise<SetScore> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await scoreClips(clips, condition, recognizer);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof ExternalToolError)) throw error;
      console.error(`retrying after: ${error.message}`);
    }
  }
}

function listArgument(name: string, fallback: string[]): string[] {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]!.split(',') : fallback;
}

async function main(): Promise<void> {
  const sweep = process.argv.includes('--sweep');
  const verbose = process.argv.includes('--verbose');
  const cache = await mkdtemp(join(tmpdir(), 'speech-lm-bench-'));
  const wantedSets = listArgument('--sets', ['domain', 'festival', 'librivox', 'cmu']);
  const conditions = listArgument('--conditions', sweep ? ['8k-mulaw'] : CONDITIONS) as Condition[];
  const clips: LmClip[] = [
    ...(wantedSets.includes('domain') ? await domainReplyClips() : []),
    ...(wantedSets.includes('festival') ? await syntheticClips(SCRIPT) : []),
    ...(wantedSets.includes('librivox') || wantedSets.includes('cmu') ? await realSpeechClips() : []),
  ].filter((clip) => wantedSets.includes(clip.set));
  const stock = new PocketSphinxRecognizer({ concurrency: 1 });
  const models: { name: string; recognizer: PocketSphinxRecognizer; domainOnly?: boolean }[] = [{ name: 'stock', recognizer: stock }];
  const weights = listArgument('--weights', sweep ? ['0', '0.3', String(DEFAULT_DOMAIN_WEIGHT), '0.7', '0.9'] : [String(DEFAULT_DOMAIN_WEIGHT)]).map(Number);
  for (const weight of weights) {
    const started = Date.now();
    const path = await callDomainModelFor(cache, weight);
    console.error(`model λ=${weight}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    models.push({ name: weight === 0 ? 'pruned general' : `domain λ=${weight}`, recognizer: stock.withLanguageModel(path) });
  }
  if (!sweep) {
    const files = await answerSearchFiles(cache);
    models.push({ name: 'grammar (jsgf)', recognizer: stock.withSearch({ jsgf: files.jsgf }), domainOnly: true });
    models.push({ name: 'keyphrases (kws)', recognizer: stock.withSearch({ kws: files.kws }), domainOnly: true });
  }
  const sets = [...new Set(clips.map((clip) => clip.set))];
  console.log('WER (total errors / words); for the domain set also the share of replies classified to their intent');
  const jobs: (() => Promise<void>)[] = [];
  for (const set of sets) {
    for (const condition of conditions) {
      for (const model of models) {
        if (model.domainOnly && set !== 'domain') continue;
        jobs.push(async () => {
          const score = await scoreWithRetry(clips.filter((clip) => clip.set === set) as SpeechClip[], condition, model.recognizer);
          const words = score.clips.reduce((sum, clip) => sum + clip.referenceWords, 0);
          const intent = set === 'domain' ? `  intent ${percent(intentAccuracy(score))}` : '';
          console.log(`${set.padEnd(10)} ${condition.padEnd(10)} ${String(words).padStart(5)} words  ${model.name.padEnd(18)} WER ${percent(score.totalRate).padStart(6)}${intent}`);
          if (verbose) for (const clip of score.clips) console.log(`    [${model.name}] ${clip.id}: ${clip.hypothesis}`);
        });
      }
    }
  }
  await twoAtATime(jobs);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
