import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_IMAGE_GAIN_DB, foldIntoHighBand, highBandShareDb, isTelephoneBand } from '../../../infra/speech/telephone-band.ts';

/** One second of tones at 16 kHz (frequency in Hz, amplitude of full scale), with 0.3 s of silence each side. */
function tones(...parts: [number, number][]): Int16Array {
  const pcm = new Int16Array(16_000 + 9_600);
  for (let index = 4_800; index < 4_800 + 16_000; index++) {
    pcm[index] = Math.round(parts.reduce((sum, [frequency, amplitude]) => sum + amplitude * 32767 * Math.sin((2 * Math.PI * frequency * index) / 16_000), 0));
  }
  return pcm;
}

test('a band-limited signal is telephone band; one with energy above 4 kHz is not', () => {
  assert.ok(isTelephoneBand(tones([440, 0.3], [1_200, 0.2], [3_300, 0.1])));
  assert.not.ok(isTelephoneBand(tones([440, 0.3], [6_000, 0.05])));
  assert.ok(highBandShareDb(tones([1_000, 0.3])) < -60);
});

test('folding mirrors the speech band above 4 kHz at the image gain and leaves silence silent', () => {
  const folded = foldIntoHighBand(tones([1_000, 0.3]));
  // The 1 kHz tone gets a 7 kHz image of the same amplitude times the gain: its share is gain² / (1 + gain²).
  const gain = 10 ** (DEFAULT_IMAGE_GAIN_DB / 20);
  const expected = 10 * Math.log10((gain * gain) / (1 + gain * gain));
  assert.ok(Math.abs(highBandShareDb(folded) - expected) < 0.5, `${highBandShareDb(folded)} against ${expected}`);
  assert.not.ok(isTelephoneBand(folded), 'folded audio is not folded twice');
  assert.is(folded[100], 0);
});

test('silence is neither measured nor changed', () => {
  const silence = new Int16Array(16_000);
  assert.is(highBandShareDb(silence), 0);
  assert.not.ok(isTelephoneBand(silence));
  assert.equal(foldIntoHighBand(silence), silence);
});

test.run();
