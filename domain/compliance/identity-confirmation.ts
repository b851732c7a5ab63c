/**
 * When was the person on the line confirmed to be the borrower? Heuristic: the agent asks ("am I speaking with
 * ...", "क्या आप ... जी हैं", "...சாரா?") and the next customer turn affirms ("yes", "हाँ", "ஆமா") without saying
 * they are someone else ("his wife", "मैं उनका भाई"). Returns the index of that customer turn, or null when the
 * identity is never confirmed.
 */
import type { TranscriptSegment } from '../transcription-job.ts';
import { agentSpeaker } from '../shared/text/speaker-roles.ts';
import { findPhrase } from './phrase-finder.ts';

export function identityConfirmationIndex(segments: readonly TranscriptSegment[], language: string): number | null {
  const agent = agentSpeaker(segments);
  let asked = false;
  for (const [index, segment] of segments.entries()) {
    if (segment.speaker === agent) {
      if (findPhrase(segment.text, language, 'identityQuestions', { negatable: false })) asked = true;
      continue;
    }
    if (!asked) continue;
    if (findPhrase(segment.text, language, 'thirdParty', { negatable: false })) {
      asked = false;
      continue;
    }
    if (findPhrase(segment.text, language, 'affirmations', { negatable: false })) return index;
    asked = false;
  }
  return null;
}
