import { StereoRecorder } from '../../infra/speech/wav.ts';
import type { AudioClip } from '../../infra/telephony/port.ts';

/**
 * Assembles a call's recording from the clips the conversation exchanged: agent on the left channel, customer on
 * the right, each at its offset from answer. The clips are the audio that went over the line (our synthesised
 * prompts, the customer's audio from the carrier), so the recording's timeline is the call's timeline.
 */
export const RECORDING_SAMPLE_RATE = 16_000;

export class CallRecordingBuilder {
  private readonly recorder = new StereoRecorder(RECORDING_SAMPLE_RATE);

  add(side: 'agent' | 'customer', offsetSeconds: number, clip: AudioClip): void {
    this.recorder.place(side, offsetSeconds, resample(clip, RECORDING_SAMPLE_RATE));
  }

  /** The WAV, exactly `durationSeconds` long (trailing silence up to the hang-up). */
  finish(durationSeconds: number): { wav: Buffer; durationSeconds: number; sampleRate: number } {
    this.recorder.extendTo(durationSeconds);
    return { wav: this.recorder.renderWav(), durationSeconds: this.recorder.durationSeconds, sampleRate: RECORDING_SAMPLE_RATE };
  }
}

/** Linear interpolation: enough for speech moving between 8 kHz telephone audio and 16 kHz recordings. */
export function resample(clip: AudioClip, targetRate: number): Int16Array {
  if (clip.sampleRate === targetRate) return clip.pcm;
  const ratio = clip.sampleRate / targetRate;
  const length = Math.floor(clip.pcm.length / ratio);
  const output = new Int16Array(length);
  for (let index = 0; index < length; index++) {
    const position = index * ratio;
    const left = Math.floor(position);
    const right = Math.min(left + 1, clip.pcm.length - 1);
    const fraction = position - left;
    output[index] = Math.round(clip.pcm[left]! * (1 - fraction) + clip.pcm[right]! * fraction);
  }
  return output;
}
