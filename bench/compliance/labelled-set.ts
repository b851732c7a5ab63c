/**
 * The labelled compliance set (bench/compliance/tuning*.json, held-out.json, fresh.json) as post-call inputs. Turn times
 * are derived from the words: 0.45 s a word (0.6 s in Tamil and Telugu, whose words are longer), 0.6 s between
 * turns, and `['pause', seconds]` adds silence.
 */
import { readFileSync } from 'node:fs';
import type { PostCallInput } from '../../domain/compliance/rule.ts';
import type { CallPurpose } from '../../domain/compliance/rule.ts';
import type { TranscriptSegment } from '../../domain/transcription-job.ts';

export type Slice = 'tuning' | 'held-out' | 'fresh';

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

function load(file: string, slice: Slice): LabelledCall[] {
  const raw = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { calls: RawCall[] };
  return raw.calls.map((call) => ({
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
  return [...load('./tuning.json', 'tuning'), ...load('./tuning-2.json', 'tuning'), ...load('./tuning-3.json', 'tuning'), ...load('./tuning-4.json', 'tuning'), ...load('./held-out.json', 'held-out'), ...load('./fresh.json', 'fresh')];
}
