import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectVoiceActivity } from '../../../infra/speech/voice-activity.ts';

const RATE = 16_000;

function signal(totalSeconds: number, noiseAmplitude: number, ...spans: Array<[number, number]>): Int16Array {
  const samples = new Int16Array(totalSeconds * RATE);
  let seed = 1;
  for (let index = 0; index < samples.length; index++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    samples[index] = Math.round(noiseAmplitude * (seed / 2147483648 - 0.5));
  }
  for (const [start, end] of spans) {
    for (let index = start * RATE; index < end * RATE; index++) samples[index] += Math.round(6_000 * Math.sin(index / 7));
  }
  return samples;
}

function rounded(regions: Array<{ start: number; end: number }>): number[][] {
  return regions.map((region) => [Math.round(region.start * 10) / 10, Math.round(region.end * 10) / 10]);
}

test('finds speech over line noise; a pause longer than the hangover separates regions', () => {
  const regions = detectVoiceActivity(signal(6, 200, [0.5, 2], [3, 5]), { sampleRate: RATE });
  assert.equal(rounded(regions), [
    [0.5, 2],
    [3, 5],
  ]);
});

test('a dip shorter than the hangover stays inside one region; clicks are ignored', () => {
  const regions = detectVoiceActivity(signal(4, 0, [0.5, 1.5], [1.7, 3], [3.5, 3.54]), { sampleRate: RATE, hangoverSeconds: 0.3 });
  assert.equal(rounded(regions), [[0.5, 3]]);
});

test('digital silence and constant noise have no speech', () => {
  assert.equal(detectVoiceActivity(new Int16Array(RATE * 2), { sampleRate: RATE }), []);
  assert.equal(detectVoiceActivity(signal(2, 100), { sampleRate: RATE }), []);
});

test.run();
