import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeWav, encodeWav, InvalidWavError, mixStereo, StereoRecorder } from '../../../infra/speech/wav.ts';

test('a stereo WAV round-trips its samples, rate and channel order', () => {
  const left = Int16Array.from([0, 1000, -1000, 32767, -32768]);
  const right = Int16Array.from([5, 6, 7, 8, 9]);
  const bytes = encodeWav({ sampleRate: 8000, channels: [left, right] });
  assert.is(bytes.length, 44 + 5 * 2 * 2);
  const decoded = decodeWav(bytes);
  assert.is(decoded.sampleRate, 8000);
  assert.equal(Array.from(decoded.channels[0]!), Array.from(left));
  assert.equal(Array.from(decoded.channels[1]!), Array.from(right));
});

test('a WAV whose data chunk claims more bytes than the file holds is read up to its end', () => {
  const bytes = encodeWav({ sampleRate: 16000, channels: [Int16Array.from([1, 2, 3])] });
  bytes.writeUInt32LE(0xffffffff, 40);
  assert.equal(Array.from(decodeWav(bytes).channels[0]!), [1, 2, 3]);
});

test('non-WAV bytes and channels of different lengths are refused', () => {
  assert.throws(() => decodeWav(Buffer.from('not a wav file at all')), (error: unknown) => error instanceof InvalidWavError);
  assert.throws(() => encodeWav({ sampleRate: 16000, channels: [new Int16Array(2), new Int16Array(3)] }), /same length/);
});

test('mixStereo pads the shorter track with silence', () => {
  const mixed = mixStereo(Int16Array.from([1, 2, 3]), Int16Array.from([9]), 8000);
  assert.is(mixed.sampleRate, 8000);
  assert.equal(Array.from(mixed.channels[0]), [1, 2, 3]);
  assert.equal(Array.from(mixed.channels[1]), [9, 0, 0]);
});

test('the stereo recorder puts agent clips on the left and customer clips on the right at their offsets', () => {
  const recorder = new StereoRecorder(1000);
  recorder.place('agent', 0.5, Int16Array.from([100, 100]));
  recorder.place('customer', 1.25, Int16Array.from([-7, -7, -7]));
  recorder.place('agent', 0.501, Int16Array.from([32760])); // overlaps the first clip: summed and clipped
  recorder.extendTo(2);
  const audio = recorder.render();
  const [left, right] = audio.channels;
  assert.is(left.length, 2000);
  assert.is(recorder.durationSeconds, 2);
  assert.is(left[499], 0);
  assert.is(left[500], 100);
  assert.is(left[501], 32767);
  assert.is(left[502], 0);
  assert.is(right[500], 0);
  assert.equal(Array.from(right.subarray(1249, 1253)), [0, -7, -7, -7]);
  assert.is(left[1250], 0);
  const reread = decodeWav(recorder.renderWav());
  assert.equal(Array.from(reread.channels[1]!.subarray(1250, 1253)), [-7, -7, -7]);
});

test('a recording whose clips do not overlap is written straight into the file, the same bytes as rendered and encoded', () => {
  const recorder = new StereoRecorder(8000);
  const clip = (length: number, seed: number) => Int16Array.from({ length }, (_, index) => ((index * seed) % 65536) - 32768);
  recorder.place('customer', 0.75, clip(3000, 7));
  recorder.place('agent', 0, clip(4000, 13));
  recorder.place('agent', 0.5, clip(800, 31)); // starts exactly where the first agent clip ends
  recorder.extendTo(1.5);
  const wav = recorder.renderWav();
  assert.equal(wav, encodeWav(recorder.render()));
  const [left, right] = decodeWav(wav).channels;
  assert.equal(Array.from(left!.subarray(3998, 4002)), [...clip(4000, 13).subarray(3998), ...clip(800, 31).subarray(0, 2)]);
  assert.is(right![5999], 0);
  assert.is(right![6000], clip(3000, 7)[0]);
  assert.is(left!.length, 12000);
});

test('a negative offset is refused', () => {
  assert.throws(() => new StereoRecorder(16000).place('agent', -1, new Int16Array(1)), (error: unknown) => error instanceof RangeError);
});

test.run();
