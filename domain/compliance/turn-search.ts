/**
 * Searching a call's turns for a lexicon list, by speaker: a violation is what the agent says; the customer
 * saying "police" or "I'll see you in court" is not the agent's breach. Speaker roles come from
 * domain/shared/text/speaker-roles.ts (`agent` / `customer` labels, else who spoke first).
 */
import type { TranscriptSegment } from '../transcription-job.ts';
import { agentSegments, nonAgentSegments } from '../shared/text/speaker-roles.ts';
import type { LexiconKey } from '../shared/text/lexicon-selection.ts';
import type { ComplianceList } from './lexicon/compliance-lexicon.ts';
import type { ConceptPattern } from './lexicon/concepts.ts';
import { findPair, findPattern, findPhrase, type FindOptions, type PhraseHit } from './phrase-finder.ts';
import type { Evidence } from './rule.ts';

export interface TurnHit {
  segment: TranscriptSegment;
  hit: PhraseHit;
}

const LANGUAGE_NAMES: Record<LexiconKey, string> = { en: 'English', hi: 'Hindi', 'hi-latn': 'Hinglish', mr: 'Marathi', ta: 'Tamil', te: 'Telugu' };

export function languageName(key: LexiconKey): string {
  return LANGUAGE_NAMES[key];
}

export function evidenceOf(segment: TranscriptSegment): Evidence {
  return { speaker: segment.speaker, start_time: segment.start_time, end_time: segment.end_time, text: segment.text };
}

/** Every turn of `turns` (in order) where `list` occurs, with the first phrase found in it. */
export function turnsWith(turns: readonly TranscriptSegment[], language: string, list: ComplianceList, options: FindOptions): TurnHit[] {
  const found: TurnHit[] = [];
  for (const segment of turns) {
    const hit = findPhrase(segment.text, language, list, options);
    if (hit) found.push({ segment, hit });
  }
  return found;
}

/** Every turn where a phrase of `first` and one of `second` stand in the same clause (findPair). */
export function turnsWithPair(
  turns: readonly TranscriptSegment[],
  language: string,
  first: ComplianceList,
  second: ComplianceList,
  options: FindOptions,
): TurnHit[] {
  const found: TurnHit[] = [];
  for (const segment of turns) {
    const hit = findPair(segment.text, language, first, second, options);
    if (hit) found.push({ segment, hit });
  }
  return found;
}

/** Every turn where a concept pattern of `patterns` occurs in one clause (findPattern). */
export function turnsWithPattern(turns: readonly TranscriptSegment[], language: string, patterns: readonly ConceptPattern[], options: FindOptions): TurnHit[] {
  const found: TurnHit[] = [];
  for (const segment of turns) {
    const hit = findPattern(segment.text, language, patterns, options);
    if (hit) found.push({ segment, hit });
  }
  return found;
}

/** The agent's turns that start within the first `seconds` of the call. */
export function agentTurnsWithin(segments: readonly TranscriptSegment[], seconds: number): TranscriptSegment[] {
  return agentSegments(segments).filter((segment) => segment.start_time < seconds);
}

export { agentSegments, nonAgentSegments };
