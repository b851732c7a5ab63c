// The speech pipeline end to end: decode a recording, recognise each party, and diarise into transcript
// segments. This is what the transcription process manager calls for a downloaded recording.
import { decodeAudioFile, DECODED_SAMPLE_RATE, type AudioProbe } from './decode.ts';
import { diarizeByChannel, diarizeByPitch, speakerLabels, segmentsFromSpeakerWords, type TranscriptSegment } from './diarize.ts';
import { LanguageNotSupportedError, type RecognizedWord, type SpeechRecognizer } from './port.ts';
import { detectVoiceActivity } from './voice-activity.ts';

export interface TranscribeOptions {
  /** BCP-47, e.g. `en-IN`. */
  language: string;
  /** Expected speakers, 1 to 10; default 2. Used by mono diarisation; stereo gives one speaker per channel. */
  speakers?: number;
  recognizer: SpeechRecognizer;
  /** Speaker label per channel of a stereo recording; default `['agent', 'customer']` (left, right). */
  channelSpeakers?: string[];
  /** Default 4 hours (the spec's limit). */
  maxDurationSeconds?: number;
  signal?: AbortSignal;
}

export type DiarizationMethod = 'channel' | 'pitch' | 'single_speaker';

export interface Transcription {
  segments: TranscriptSegment[];
  durationSeconds: number;
  /** Channels in the decoded recording. */
  channels: number;
  diarization: {
    method: DiarizationMethod;
    /** False when pitch clusters overlap (e.g. two similar male voices): speaker labels are then guesses. */
    reliable: boolean;
    /** Distance between the speakers' typical pitches (see diarize.ts); null unless diarised by pitch. */
    pitchGapSemitones: number | null;
  };
  recognizer: string;
  probe: AudioProbe;
}

export async function transcribeAudioFile(path: string, options: TranscribeOptions): Promise<Transcription> {
  // Refuse before spending minutes decoding a recording nobody here can recognise.
  if (!options.recognizer.supports(options.language)) {
    throw new LanguageNotSupportedError(options.language, options.recognizer.name);
  }
  const audio = await decodeAudioFile(path, { maxDurationSeconds: options.maxDurationSeconds, signal: options.signal });
  const result = await transcribeChannels(audio.channels, options);
  return { ...result, durationSeconds: audio.durationSeconds, probe: audio.probe };
}

/** The same pipeline for audio already decoded to 16 kHz channels. */
export async function transcribeChannels(
  channels: Int16Array[],
  options: TranscribeOptions,
): Promise<Omit<Transcription, 'probe'>> {
  const { recognizer, language, signal } = options;
  const speakerCount = options.speakers ?? 2;
  const durationSeconds = (channels[0]?.length ?? 0) / DECODED_SAMPLE_RATE;
  const base = { durationSeconds, channels: channels.length, recognizer: recognizer.name };
  const partyChannels = channelsWithDistinctParties(channels);

  if (partyChannels.length === 2) {
    // Both channels at once: the recogniser's own limit bounds the processes across them.
    const wordsPerChannel = await Promise.all(
      partyChannels.map(async (channel) => (await recognizer.recognize(channel, language, signal)).words),
    );
    if (speakerCount === 1) {
      return { ...base, segments: singleSpeaker(wordsPerChannel.flat()), diarization: { method: 'single_speaker', reliable: true, pitchGapSemitones: null } };
    }
    return {
      ...base,
      segments: diarizeByChannel(wordsPerChannel, options.channelSpeakers ?? ['agent', 'customer']),
      diarization: { method: 'channel', reliable: true, pitchGapSemitones: null },
    };
  }

  const mono = partyChannels[0] ?? new Int16Array(0);
  const { words } = await recognizer.recognize(mono, language, signal);
  if (speakerCount === 1) {
    return { ...base, segments: singleSpeaker(words), diarization: { method: 'single_speaker', reliable: true, pitchGapSemitones: null } };
  }
  const pitch = diarizeByPitch(mono, DECODED_SAMPLE_RATE, words, speakerCount);
  return { ...base, segments: pitch.segments, diarization: { method: 'pitch', reliable: pitch.reliable, pitchGapSemitones: pitch.pitchGapSemitones } };
}

function singleSpeaker(words: RecognizedWord[]): TranscriptSegment[] {
  const [label] = speakerLabels(1);
  return segmentsFromSpeakerWords(words.map((word) => ({ ...word, speaker: label! })));
}

/**
 * The channels that carry different parties. A stereo file whose channels are copies of each other (a mono call
 * saved as stereo), or whose second channel is silent, is really mono: recognising both channels would
 * duplicate every word, so it is treated as one mixed channel instead.
 */
export function channelsWithDistinctParties(channels: Int16Array[]): Int16Array[] {
  if (channels.length !== 2) return channels.slice(0, 1);
  const [left, right] = channels as [Int16Array, Int16Array];
  if (nearlyIdentical(left, right)) return [left];
  const leftHasSpeech = detectVoiceActivity(left, { sampleRate: DECODED_SAMPLE_RATE }).length > 0;
  const rightHasSpeech = detectVoiceActivity(right, { sampleRate: DECODED_SAMPLE_RATE }).length > 0;
  if (leftHasSpeech && rightHasSpeech) return [left, right];
  return [rightHasSpeech && !leftHasSpeech ? right : left];
}

/** Correlation near 1 means one signal on both channels, possibly at different gains. */
function nearlyIdentical(left: Int16Array, right: Int16Array): boolean {
  let cross = 0;
  let leftEnergy = 0;
  let rightEnergy = 0;
  // Every 7th sample is plenty to tell a duplicated channel from two parties.
  for (let index = 0; index < left.length; index += 7) {
    cross += left[index]! * right[index]!;
    leftEnergy += left[index]! * left[index]!;
    rightEnergy += right[index]! * right[index]!;
  }
  if (leftEnergy === 0 || rightEnergy === 0) return leftEnergy === rightEnergy;
  return cross / Math.sqrt(leftEnergy * rightEnergy) > 0.98;
}
