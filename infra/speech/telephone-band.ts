// Telephone-band audio (8 kHz sampling: a phone line, G.711, most dialer recordings) carries nothing above 4 kHz.
// Upsampled to 16 kHz for PocketSphinx's wideband model, the filterbank's top channels (the model's features span
// 130-6800 Hz, fixed by its feat.params, which overrides -upperf on the command line) see near-digital silence
// whose log energy swings from frame to frame, and the decoder returns noise: 99-103% WER measured on real read
// speech through G.711. Retuning the filterbank (a copied model with -upperf 3800, or -samprate 8000 -nfft 256)
// is worse, because the model's means belong to the wideband filterbank (93-105% WER, 16 kHz audio included).
// Filling the empty band with steady noise helped (49-60%); best was folding the speech band into the empty one:
// multiplying by 1 + g(-1)^n mirrors 0-4 kHz into 4-8 kHz (f -> 8000 - f) at gain g, so the top channels again
// carry energy that moves with the speech (37-48% WER; 38% for the original 16 kHz clips). See docs/speech.md.
//
// `isTelephoneBand` tells such audio apart from wideband speech (whose 4-8 kHz band carries fricatives and
// breath), so an uploaded 8 kHz recording decoded to 16 kHz is recognised as one whatever its container says.
// Folding is applied only then: wideband audio is passed through untouched. (Answers on the SIP line are
// interpolated linearly, which leaves an attenuated image above 4 kHz that does the fold's job; docs/speech.md.)
import { frameEnergies, speechThresholdDb } from './voice-activity.ts';

const SAMPLE_RATE = 16_000;
const FRAME_SECONDS = 0.02;
/** Linear-phase high-pass, cut-off 4.3 kHz: the band a telephone line does not carry. */
const HIGH_BAND_TAPS = highPassTaps(127, 4_300 / SAMPLE_RATE);
/** Loud frames examined at most: enough to measure the band, and bounded work for an hour-long piece. */
const MAX_FRAMES_EXAMINED = 300;

/** Under this share of energy above 4 kHz, the audio came through an 8 kHz channel. */
export const TELEPHONE_BAND_SHARE_DB = -40;
/** Gain of the folded image against the speech band; chosen on the LibriVox clips through G.711 (docs/speech.md). */
export const DEFAULT_IMAGE_GAIN_DB = -10;

/**
 * Energy above 4.3 kHz against the whole signal's, in dB, over loud frames only (pauses say nothing about the
 * band). Measured: wideband read speech -16 to -28 dB; the same through 8 kHz G.711 and back -45 to -54 dB.
 * 0 for audio without a loud frame.
 */
export function highBandShareDb(pcm16k: Int16Array): number {
  const energies = frameEnergies(pcm16k, SAMPLE_RATE, FRAME_SECONDS);
  const threshold = speechThresholdDb(energies.decibels);
  const loudFrames: number[] = [];
  energies.decibels.forEach((decibels, frame) => {
    if (decibels >= threshold && decibels > -90) loudFrames.push(frame);
  });
  const step = Math.max(1, loudFrames.length / MAX_FRAMES_EXAMINED);
  const frameLength = Math.round(FRAME_SECONDS * SAMPLE_RATE);
  let total = 0;
  let high = 0;
  for (let position = 0; position < loudFrames.length; position += step) {
    const begin = loudFrames[Math.floor(position)]! * frameLength;
    const end = Math.min(pcm16k.length, begin + frameLength);
    for (let index = begin; index < end; index++) {
      total += pcm16k[index]! * pcm16k[index]!;
      const filtered = filterAt(pcm16k, index, HIGH_BAND_TAPS);
      high += filtered * filtered;
    }
  }
  if (total === 0) return 0;
  return high === 0 ? -100 : 10 * Math.log10(high / total);
}

export function isTelephoneBand(pcm16k: Int16Array): boolean {
  return highBandShareDb(pcm16k) < TELEPHONE_BAND_SHARE_DB;
}

/** The speech band mirrored into the empty 4-8 kHz band at `imageGainDb`; the 0-4 kHz band is unchanged. */
export function foldIntoHighBand(pcm16k: Int16Array, imageGainDb = DEFAULT_IMAGE_GAIN_DB): Int16Array {
  const gain = 10 ** (imageGainDb / 20);
  const out = new Int16Array(pcm16k.length);
  for (let index = 0; index < pcm16k.length; index++) {
    const value = pcm16k[index]! * (index % 2 === 0 ? 1 + gain : 1 - gain);
    out[index] = Math.max(-32768, Math.min(32767, Math.round(value)));
  }
  return out;
}

function filterAt(signal: ArrayLike<number>, index: number, taps: ArrayLike<number>): number {
  const half = taps.length >> 1;
  let sum = 0;
  for (let tap = 0; tap < taps.length; tap++) {
    const position = index + tap - half;
    if (position < 0 || position >= signal.length) continue;
    sum += taps[tap]! * signal[position]!;
  }
  return sum;
}

/** Windowed-sinc (Blackman) high-pass by spectral inversion of the low-pass; cutoff as a fraction of the rate. */
function highPassTaps(count: number, cutoff: number): Float64Array {
  const taps = new Float64Array(count);
  const middle = (count - 1) / 2;
  let sum = 0;
  for (let index = 0; index < count; index++) {
    const x = index - middle;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const window = 0.42 - 0.5 * Math.cos((2 * Math.PI * index) / (count - 1)) + 0.08 * Math.cos((4 * Math.PI * index) / (count - 1));
    taps[index] = sinc * window;
    sum += taps[index]!;
  }
  for (let index = 0; index < count; index++) taps[index] = -taps[index]! / sum;
  taps[middle] = taps[middle]! + 1;
  return taps;
}
