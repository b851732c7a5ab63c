import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { regionPitch } from '../../../infra/speech/pitch.ts';

const RATE = 16_000;

/** A voice-like harmonic signal: fundamental plus weaker overtones. */
function voiced(hz: number, seconds: number): Int16Array {
  const samples = new Int16Array(Math.round(seconds * RATE));
  for (let index = 0; index < samples.length; index++) {
    const phase = (2 * Math.PI * hz * index) / RATE;
    samples[index] = Math.round(4_000 * Math.sin(phase) + 3_000 * Math.sin(2 * phase) + 2_000 * Math.sin(3 * phase));
  }
  return samples;
}

for (const hz of [85, 120, 180, 240, 350]) {
  test(`finds ${hz} Hz within 3%`, () => {
    const pitch = regionPitch(voiced(hz, 0.5), RATE, 0, 0.5);
    assert.ok(pitch.medianHz !== null && Math.abs(pitch.medianHz / hz - 1) < 0.03, `got ${pitch.medianHz}`);
    assert.ok(pitch.voicedFrames > 20);
  });
}

test('silence and noise have no pitch; only the asked region is measured', () => {
  assert.is(regionPitch(new Int16Array(RATE), RATE, 0, 1).medianHz, null);
  const noise = Int16Array.from({ length: RATE }, (_, index) => Math.round(8_000 * Math.sin(index * index * 0.37)));
  assert.is(regionPitch(noise, RATE, 0, 1).medianHz, null);
  const twoVoices = new Int16Array(RATE);
  twoVoices.set(voiced(110, 0.5), 0);
  twoVoices.set(voiced(220, 0.5), RATE / 2);
  assert.ok(Math.abs(regionPitch(twoVoices, RATE, 0.5, 1).medianHz! - 220) < 7);
});

test.run();
