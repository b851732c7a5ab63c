/**
 * Scores a transcript against a QA scorecard (scorecard-schema.ts). A parameter passes when its check holds
 * and then scores its max_score, else 0. overall_score = 100 × Σ score / Σ max_score, rounded to one decimal;
 * the call passes when overall_score >= pass_threshold.
 *
 * Phrase lists: the call's language list plus the English list (Indian calls switch into English: "thank you",
 * "legal action"); when the scorecard has no list for the call's language, every list is used. Phrases match
 * case-insensitively on word boundaries after normalisation (normalize.ts).
 */
import type { QaParameterScore, QaScore, TranscriptSegment } from './port.ts';
import { languageSubtag } from '../../domain/shared/language.ts';
import { compilePhrase, findPhrase, tokenize, type CompiledPhrase } from '../../domain/shared/text/normalize.ts';
import type { PhraseLists, Scorecard, ScorecardCheck } from './scorecard-schema.ts';
import { agentSegments, nonAgentSegments } from '../../domain/shared/text/speaker-roles.ts';

/** The phrases of a scorecard check that apply to a call in `language`. */
export function phrasesForLanguage(lists: PhraseLists, language: string): string[] {
  const subtag = languageSubtag(language);
  const own = lists[subtag];
  if (!own) return Object.values(lists).flat();
  return subtag === 'en' || !lists['en'] ? [...own] : [...own, ...lists['en']];
}

class TranscriptView {
  private readonly wordsOf = new Map<TranscriptSegment, string[]>();

  constructor(
    readonly segments: readonly TranscriptSegment[],
    readonly language: string,
  ) {}

  words(segment: TranscriptSegment): string[] {
    let words = this.wordsOf.get(segment);
    if (!words) {
      words = tokenize(segment.text, this.language);
      this.wordsOf.set(segment, words);
    }
    return words;
  }

  saysAny(segments: readonly TranscriptSegment[], phrases: readonly CompiledPhrase[]): boolean {
    return segments.some((segment) => phrases.some((phrase) => findPhrase(this.words(segment), phrase) >= 0));
  }

  get end(): number {
    return this.segments.reduce((latest, segment) => Math.max(latest, segment.end_time), 0);
  }
}

function compiledPhrases(lists: PhraseLists, language: string): CompiledPhrase[] {
  return phrasesForLanguage(lists, language)
    .map((phrase) => compilePhrase(phrase, language))
    .filter((phrase) => phrase.length > 0);
}

function speakingTime(segments: readonly TranscriptSegment[]): number {
  return segments.reduce((total, segment) => total + Math.max(0, segment.end_time - segment.start_time), 0);
}

function longestSilence(segments: readonly TranscriptSegment[]): number {
  const inTimeOrder = [...segments].sort((a, b) => a.start_time - b.start_time);
  let longest = 0;
  let speechEnd = inTimeOrder[0]?.end_time ?? 0;
  for (const segment of inTimeOrder.slice(1)) {
    longest = Math.max(longest, segment.start_time - speechEnd);
    speechEnd = Math.max(speechEnd, segment.end_time);
  }
  return longest;
}

function checkHolds(check: ScorecardCheck, transcript: TranscriptView): boolean {
  switch (check.type) {
    case 'agent_says': {
      const end = transcript.end;
      const inWindow = agentSegments(transcript.segments).filter(
        (segment) =>
          (check.within_seconds === undefined || segment.start_time <= check.within_seconds) &&
          (check.in_last_seconds === undefined || segment.end_time >= end - check.in_last_seconds),
      );
      return transcript.saysAny(inWindow, compiledPhrases(check.phrases, transcript.language));
    }
    case 'agent_avoids': {
      const phrases = compiledPhrases(check.phrases, transcript.language);
      return !transcript.saysAny(agentSegments(transcript.segments), phrases);
    }
    case 'customer_says': {
      const phrases = compiledPhrases(check.phrases, transcript.language);
      return transcript.saysAny(nonAgentSegments(transcript.segments), phrases);
    }
    case 'talk_ratio': {
      const total = speakingTime(transcript.segments);
      // Nobody spoke: there is no balance to judge, so the check cannot be met.
      if (total === 0) return false;
      const agentShare = speakingTime(agentSegments(transcript.segments)) / total;
      return (
        (check.max_agent_share === undefined || agentShare <= check.max_agent_share) &&
        (check.min_agent_share === undefined || agentShare >= check.min_agent_share)
      );
    }
    case 'max_silence':
      return longestSilence(transcript.segments) <= check.max_seconds;
  }
}

export function scoreQa(segments: readonly TranscriptSegment[], language: string, scorecard: Scorecard): QaScore {
  const transcript = new TranscriptView(segments, language);
  const parameter_scores: QaParameterScore[] = scorecard.parameters.map((parameter) => {
    const passed = checkHolds(parameter.check, transcript);
    return {
      parameter_name: parameter.name,
      score: passed ? parameter.max_score : 0,
      max_score: parameter.max_score,
      passed,
    };
  });
  const scored = parameter_scores.reduce((total, parameter) => total + parameter.score, 0);
  const possible = parameter_scores.reduce((total, parameter) => total + parameter.max_score, 0);
  const overall_score = possible === 0 ? 0 : Math.round((1000 * scored) / possible) / 10;
  return {
    overall_score,
    parameter_scores,
    passed: overall_score >= scorecard.pass_threshold,
    pass_threshold: scorecard.pass_threshold,
  };
}
