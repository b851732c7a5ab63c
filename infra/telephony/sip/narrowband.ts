import type { AudioClip } from '../port.ts';

/**
 * Prompts come from synthesis at 16-22 kHz; the line carries 8 kHz. A box filter over each output sample's span
 * (a crude low-pass, enough to keep synthetic speech free of audible aliasing) then linear interpolation.
 */
export function toNarrowband(clip: AudioClip, targetRate = 8_000): Int16Array {
  if (clip.sampleRate === targetRate) return clip.pcm;
  const ratio = clip.sampleRate / targetRate;
  const length = Math.floor(clip.pcm.length / ratio);
  const out = new Int16Array(length);
  const span = Math.max(1, Math.round(ratio));
  for (let index = 0; index < length; index++) {
    const centre = Math.floor(index * ratio);
    let sum = 0;
    let count = 0;
    for (let offset = 0; offset < span && centre + offset < clip.pcm.length; offset++) {
      sum += clip.pcm[centre + offset]!;
      count++;
    }
    out[index] = Math.round(sum / Math.max(1, count));
  }
  return out;
}
