/**
 * The labelled compliance set (bench/compliance/tuning*.json, held-out.json, fresh.json, held-out-2/ and fresh-2/ to -8/<script>.json)
 * as post-call inputs. A file of those three folders gives per-file defaults (language, names, recording) and an intro (the agent
 * and lender named, the purpose, the recording disclosure, the identity confirmed) that starts every call unless the
 * call says `"intro": false`. Turn times
 * are derived from the words: 0.45 s a word (0.6 s in Tamil and Telugu, whose words are longer), 0.6 s between
 * turns, and `['pause', seconds]` adds silence.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { PostCallInput } from '../../domain/compliance/rule.ts';
import type { CallPurpose } from '../../domain/compliance/rule.ts';
import type { TranscriptSegment } from '../../domain/transcription-job.ts';

export type Slice = 'tuning' | 'held-out' | 'fresh' | 'held-out-2' | 'fresh-2' | 'fresh-3' | 'fresh-4' | 'fresh-5' | 'fresh-6' | 'fresh-7' | 'fresh-8';

interface RawCall {
  id: string;
  language: string;
  script: string;
  purpose: CallPurpose;
  recorded: boolean;
  sector?: 'lender' | 'insurer';
  agent_sentiment?: number;
  lender: string | null;
  agent: string | null;
  turns: Array<[string, string | number]>;
  expected: string[];
  opt_out: boolean;
}

export interface LabelledCall {
  id: string;
  slice: Slice;
  /** hi, ta, en, te, mr, or hi-latn (romanised Hinglish). */
  script: string;
  input: PostCallInput;
  sector: 'lender' | 'insurer';
  expected: ReadonlySet<string>;
  optOut: boolean;
}

const GAP_SECONDS = 0.6;

function secondsPerWord(language: string): number {
  return language.startsWith('ta') || language.startsWith('te') ? 0.6 : 0.45;
}

function segmentsOf(call: RawCall): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let clock = 0;
  for (const [speaker, content] of call.turns) {
    if (speaker === 'pause') {
      clock += Number(content);
      continue;
    }
    const text = String(content);
    const words = text.split(/\s+/).filter(Boolean).length;
    const start = clock;
    const end = start + Math.max(0.5, words * secondsPerWord(call.language));
    segments.push({ speaker, text, start_time: Number(start.toFixed(2)), end_time: Number(end.toFixed(2)) });
    clock = end + GAP_SECONDS;
  }
  return segments;
}

type Turn = [string, string | number];

interface CompactFile {
  defaults: { language: string; lender: string | null; agent: string | null; recorded: boolean; intro: Turn[] };
  calls: Array<Partial<RawCall> & { id: string; purpose: CallPurpose; turns: Turn[]; expected: string[]; intro?: boolean }>;
}

/** A held-out-2 file (bench/compliance/held-out-2/<script>.json): its defaults and intro spelled out per call. */
function expandCompact(file: CompactFile, script: string): RawCall[] {
  return file.calls.map((call) => ({
    id: call.id,
    language: call.language ?? file.defaults.language,
    script,
    purpose: call.purpose,
    recorded: call.recorded ?? file.defaults.recorded,
    ...(call.sector ? { sector: call.sector } : {}),
    lender: call.lender !== undefined ? call.lender : file.defaults.lender,
    agent: call.agent !== undefined ? call.agent : file.defaults.agent,
    turns: call.intro === false ? call.turns : [...file.defaults.intro, ...call.turns],
    expected: call.expected,
    opt_out: call.opt_out ?? false,
  }));
}

function load(file: string, slice: Slice): LabelledCall[] {
  const raw = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { calls: RawCall[] };
  return toLabelled(raw.calls, slice);
}

function loadCompactDirectory(directory: string, slice: Slice): LabelledCall[] {
  const url = new URL(directory, import.meta.url);
  return readdirSync(url)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => {
      const file = JSON.parse(readFileSync(new URL(name, url), 'utf8')) as CompactFile;
      return toLabelled(expandCompact(file, name.slice(0, -'.json'.length)), slice);
    });
}

function toLabelled(calls: RawCall[], slice: Slice): LabelledCall[] {
  return calls.map((call) => ({
    id: call.id,
    slice,
    script: call.script,
    sector: call.sector ?? 'lender',
    expected: new Set(call.expected),
    optOut: call.opt_out,
    input: {
      language: call.language,
      purpose: call.purpose,
      segments: segmentsOf(call),
      recorded: call.recorded,
      agentSentiment: call.agent_sentiment ?? null,
      lenderName: call.lender,
      agentName: call.agent,
    },
  }));
}

export function loadLabelledSet(): LabelledCall[] {
  return [...load('./tuning.json', 'tuning'), ...load('./tuning-2.json', 'tuning'), ...load('./tuning-3.json', 'tuning'), ...load('./tuning-4.json', 'tuning'), ...load('./held-out.json', 'held-out'), ...load('./fresh.json', 'fresh'), ...loadCompactDirectory('./held-out-2/', 'held-out-2'), ...loadCompactDirectory('./fresh-2/', 'fresh-2'), ...loadCompactDirectory('./fresh-3/', 'fresh-3'), ...loadCompactDirectory('./fresh-4/', 'fresh-4'), ...loadCompactDirectory('./fresh-5/', 'fresh-5'), ...loadCompactDirectory('./fresh-6/', 'fresh-6'), ...loadCompactDirectory('./fresh-7/', 'fresh-7'), ...loadCompactDirectory('./fresh-8/', 'fresh-8')];
}
