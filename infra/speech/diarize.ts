// Who said which word, and the transcript segments that follow from it.
//   Stereo call recordings carry one party per channel, so each channel is recognised on its own and its words
//   belong to that channel's speaker: exact.
//   Mono recordings are split into stretches of speech, each stretch gets its median pitch, and the stretches are
//   clustered into the requested number of speakers (speaker-clustering.ts). This separates a female from a male
//   voice reliably and two different female voices usually; two similar male voices it cannot tell apart, which
//   the returned `reliable` flag shows.
import { regionPitch } from './pitch.ts';
import type { RecognizedWord } from './port.ts';
import { clusterSpeakers, type PitchedStretch } from './speaker-clustering.ts';
import { detectVoiceActivity, type TimeRegion } from './voice-activity.ts';

export interface TranscriptSegment {
  speaker: string;
  text: string;
  /** Seconds from the start of the recording, two decimals. */
  start_time: number;
  end_time: number;
  /** Mean word confidence, 0 to 1, two decimals. */
  confidence: number;
}

export interface SpeakerWord extends RecognizedWord {
  speaker: string;
}

/** Words of one speaker separated by less than this stay in one segment. */
export const SEGMENT_GAP_SECONDS = 0.8;

/** Spec labels: `agent`, `customer` for two speakers; `speaker_1` ... for more; a lone speaker is the agent. */
export function speakerLabels(speakerCount: number): string[] {
  if (speakerCount <= 1) return ['agent'];
  if (speakerCount === 2) return ['agent', 'customer'];
  return Array.from({ length: speakerCount }, (_, index) => `speaker_${index + 1}`);
}

export function segmentsFromSpeakerWords(words: SpeakerWord[], maxGapSeconds = SEGMENT_GAP_SECONDS): TranscriptSegment[] {
  const ordered = [...words].sort((a, b) => a.start - b.start || a.end - b.end);
  const segments: TranscriptSegment[] = [];
  let current: SpeakerWord[] = [];
  const flush = () => {
    if (current.length === 0) return;
    const confidence = current.reduce((sum, word) => sum + word.confidence, 0) / current.length;
    segments.push({
      speaker: current[0]!.speaker,
      text: current.map((word) => word.word).join(' '),
      start_time: roundTo2(current[0]!.start),
      end_time: roundTo2(current.reduce((latest, word) => Math.max(latest, word.end), 0)),
      confidence: roundTo2(confidence),
    });
    current = [];
  };
  for (const word of ordered) {
    const previous = current[current.length - 1];
    if (previous !== undefined && (previous.speaker !== word.speaker || word.start - previous.end >= maxGapSeconds)) flush();
    current.push(word);
  }
  flush();
  return segments;
}

/** Words recognised per channel, channel i spoken by `channelSpeakers[i]` (default left agent, right customer). */
export function diarizeByChannel(
  wordsPerChannel: RecognizedWord[][],
  channelSpeakers: readonly string[] = ['agent', 'customer'],
): TranscriptSegment[] {
  const words = wordsPerChannel.flatMap((channelWords, channel) =>
    channelWords.map((word) => ({ ...word, speaker: channelSpeakers[channel] ?? `speaker_${channel + 1}` })),
  );
  return segmentsFromSpeakerWords(words);
}

export interface PitchDiarization {
  segments: TranscriptSegment[];
  /** How far apart the speakers' typical pitches are (closest pair). */
  pitchGapSemitones: number;
  /**
   * False when the pitch groups are too close to be different voices. One voice split in two still shows two
   * groups about 2-3 semitones apart (intonation); a female and a male voice are 5-10 apart.
   */
  reliable: boolean;
  /** Speech stretches with their speaker, for callers that want the turn timeline without words. */
  turns: Array<TimeRegion & { speaker: string }>;
}

export const RELIABLE_PITCH_GAP_SEMITONES = 3.5;
/** The gap must also be large against the spread of pitch within each group. */
const RELIABLE_GAP_OVER_SPREAD = 2;

/** Longest stretch given one pitch; longer speech is cut so a quick turn change inside it is still seen. */
const MAX_STRETCH_SECONDS = 0.75;

export function diarizeByPitch(
  samples: Int16Array,
  sampleRate: number,
  words: RecognizedWord[],
  speakerCount: number,
): PitchDiarization {
  const labels = speakerLabels(speakerCount);
  const stretches = speechStretches(samples, sampleRate);
  const clustering = clusterSpeakers(stretches, labels.length);
  const turns = stretches.map((stretch, index) => ({
    start: stretch.start,
    end: stretch.end,
    speaker: labels[clustering.labels[index]!] ?? labels[0]!,
  }));
  const speakerWords = words.map((word) => ({ ...word, speaker: speakerAt(turns, word) ?? labels[0]! }));
  return {
    segments: segmentsFromSpeakerWords(speakerWords),
    pitchGapSemitones: roundTo2(clustering.gapSemitones),
    reliable:
      labels.length === 1 ||
      (clustering.gapSemitones >= RELIABLE_PITCH_GAP_SEMITONES && clustering.gapOverSpread >= RELIABLE_GAP_OVER_SPREAD),
    turns,
  };
}

function speechStretches(samples: Int16Array, sampleRate: number): PitchedStretch[] {
  const regions = detectVoiceActivity(samples, { sampleRate, hangoverSeconds: 0.2, minRegionSeconds: 0.1 });
  const stretches: PitchedStretch[] = [];
  for (const region of regions) {
    const pieces = Math.ceil((region.end - region.start) / MAX_STRETCH_SECONDS);
    const pieceSeconds = (region.end - region.start) / pieces;
    for (let piece = 0; piece < pieces; piece++) {
      const start = region.start + piece * pieceSeconds;
      const end = start + pieceSeconds;
      const pitch = regionPitch(samples, sampleRate, start, end);
      stretches.push({
        start,
        end,
        logPitch: pitch.medianHz === null ? null : Math.log(pitch.medianHz),
        weight: pitch.voicedFrames,
        afterPause: piece === 0,
      });
    }
  }
  return stretches;
}

/** The speaker of the stretch overlapping the word most, else of the nearest stretch. Turns are in time order. */
function speakerAt(turns: Array<TimeRegion & { speaker: string }>, word: RecognizedWord): string | undefined {
  // Binary search for the first turn that ends after the word starts: a 4-hour call has tens of thousands of both.
  let low = 0;
  let high = turns.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (turns[middle]!.end <= word.start) low = middle + 1;
    else high = middle;
  }
  let bestSpeaker: string | undefined;
  let bestOverlap = 0;
  for (let index = low; index < turns.length && turns[index]!.start < word.end; index++) {
    const turn = turns[index]!;
    const overlap = Math.min(turn.end, word.end) - Math.max(turn.start, word.start);
    if (overlap > bestOverlap) {
      bestOverlap = overlap;
      bestSpeaker = turn.speaker;
    }
  }
  if (bestSpeaker !== undefined) return bestSpeaker;
  const before = turns[low - 1];
  const after = turns[low];
  if (before === undefined) return after?.speaker;
  if (after === undefined) return before.speaker;
  return word.start - before.end <= after.start - word.end ? before.speaker : after.speaker;
}

function roundTo2(value: number): number {
  return Math.round(value * 100) / 100;
}
