import { readFileSync } from 'node:fs';
import type { TranscriptSegment } from '../infra/analysis/port.ts';

/**
 * A labelled call of bench/data (labelled-transcripts.json and the held-out slices): what the analysis benchmarks
 * measure against and what the call classifier is trained on (scripts/train-call-classifier.ts).
 */
export interface LabelledTranscript {
  id: string;
  language: string;
  /** A group within a language (e.g. Hinglish); the language's code otherwise. */
  variant?: string;
  /** Only in labelled-transcripts.json: the tuning or held-out split. */
  split?: string;
  /** null: the customer expressed no intent of the label set. */
  intent: string | null;
  sentiment: -1 | 0 | 1;
  segments: TranscriptSegment[];
}

export function readLabelledTranscripts(path: string): LabelledTranscript[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { transcripts: LabelledTranscript[] }).transcripts;
}
