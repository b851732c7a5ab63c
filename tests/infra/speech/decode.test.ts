import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AudioTooLongError, decodeAudioFile, probeAudio, UnsupportedFormatError } from '../../../infra/speech/decode.ts';
import { encodeWav } from '../../../infra/speech/wav.ts';

const directory = mkdtempSync(join(tmpdir(), 'decode-test-'));
const SOURCE_RATE = 44_100;

/** Left channel: a 440 Hz tone in the first second; right channel: 660 Hz in the second second. */
function twoSidedTone(): Buffer {
  const length = 2 * SOURCE_RATE;
  const left = new Int16Array(length);
  const right = new Int16Array(length);
  for (let index = 0; index < SOURCE_RATE; index++) {
    left[index] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / SOURCE_RATE));
    right[SOURCE_RATE + index] = Math.round(8000 * Math.sin((2 * Math.PI * 660 * index) / SOURCE_RATE));
  }
  return encodeWav({ sampleRate: SOURCE_RATE, channels: [left, right] });
}

const sourcePath = join(directory, 'source.wav');
writeFileSync(sourcePath, twoSidedTone());

function ffmpeg(output: string, ...codecArgs: string[]): string {
  const path = join(directory, output);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', sourcePath, ...codecArgs, path]);
  return path;
}

const encodings = [
  { name: 'wav', path: sourcePath, format: 'wav' },
  { name: 'mp3', path: ffmpeg('call.mp3', '-c:a', 'libmp3lame', '-b:a', '96k'), format: 'mp3' },
  { name: 'ogg vorbis', path: ffmpeg('call.ogg', '-c:a', 'libvorbis'), format: 'ogg_vorbis' },
  { name: 'ogg opus', path: ffmpeg('call.opus.ogg', '-c:a', 'libopus', '-b:a', '48k'), format: 'ogg_opus' },
  { name: 'flac', path: ffmpeg('call.flac'), format: 'flac' },
  { name: 'm4a', path: ffmpeg('call.m4a', '-c:a', 'aac', '-b:a', '96k'), format: 'm4a' },
] as const;

function rms(samples: Int16Array, from: number, to: number): number {
  let sum = 0;
  for (let index = from; index < to; index++) sum += samples[index]! ** 2;
  return Math.sqrt(sum / (to - from));
}

for (const encoding of encodings) {
  test(`${encoding.name}: decodes to 16 kHz with the two channels kept apart`, async () => {
    const audio = await decodeAudioFile(encoding.path);
    assert.is(audio.probe.format, encoding.format);
    assert.is(audio.sampleRate, 16_000);
    assert.is(audio.channels.length, 2);
    assert.ok(Math.abs(audio.durationSeconds - 2) < 0.1, `duration ${audio.durationSeconds}`);
    const [left, right] = audio.channels as [Int16Array, Int16Array];
    // Skip the edges of the tone, where codecs smear a little energy across the boundary.
    assert.ok(rms(left, 1_600, 14_400) > 3_000, 'left speaks in the first second');
    assert.ok(rms(left, 19_200, 30_400) < 300, 'left is silent in the second second');
    assert.ok(rms(right, 1_600, 14_400) < 300, 'right is silent in the first second');
    assert.ok(rms(right, 19_200, 30_400) > 3_000, 'right speaks in the second second');
  });
}

test('a mono file decodes to one channel; a 6-channel file is downmixed to one', async () => {
  const mono = join(directory, 'mono.wav');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', sourcePath, '-ac', '1', mono]);
  const monoAudio = await decodeAudioFile(mono);
  assert.is(monoAudio.channels.length, 1);
  const surround = join(directory, 'surround.flac');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', sourcePath, '-af', 'pan=5.1|FL=c0|FR=c1|FC=c0|LFE=c1|BL=c0|BR=c1', surround]);
  const surroundAudio = await decodeAudioFile(surround);
  assert.is(surroundAudio.probe.channelCount, 6);
  assert.is(surroundAudio.channels.length, 1);
});

test('a G.711 mu-law WAV (common for telephony) is a WAV and decodes', async () => {
  const mulaw = join(directory, 'mulaw.wav');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', sourcePath, '-ar', '8000', '-c:a', 'pcm_mulaw', mulaw]);
  const audio = await decodeAudioFile(mulaw);
  assert.is(audio.probe.format, 'wav');
  assert.is(audio.probe.codec, 'pcm_mulaw');
  assert.ok(Math.abs(audio.durationSeconds - 2) < 0.05);
});

async function expectUnsupported(path: string): Promise<void> {
  try {
    await decodeAudioFile(path);
    assert.unreachable('should have been refused');
  } catch (error) {
    assert.instance(error, UnsupportedFormatError);
    assert.is((error as UnsupportedFormatError).code, 'unsupported_format');
    assert.match((error as Error).message, /WAV, MP3, OGG/);
  }
}

test('a PNG image, a text file, an empty file and a WebM are unsupported_format', async () => {
  const png = join(directory, 'image.png');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=red:s=8x8', '-frames:v', '1', png]);
  await expectUnsupported(png);
  const text = join(directory, 'notes.wav');
  writeFileSync(text, 'hello, this is not audio\n');
  await expectUnsupported(text);
  const empty = join(directory, 'empty.mp3');
  writeFileSync(empty, '');
  await expectUnsupported(empty);
  await expectUnsupported(ffmpeg('call.webm', '-c:a', 'libopus'));
});

test('a playlist that points elsewhere is refused without being followed', async () => {
  const playlist = join(directory, 'list.m3u8');
  writeFileSync(playlist, '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nhttp://127.0.0.1:9/segment.ts\n#EXT-X-ENDLIST\n');
  await expectUnsupported(playlist);
});

test('audio longer than the limit is audio_too_long, before decoding', async () => {
  try {
    await decodeAudioFile(encodings[1].path, { maxDurationSeconds: 1.5 });
    assert.unreachable('should have been refused');
  } catch (error) {
    assert.instance(error, AudioTooLongError);
    assert.is((error as AudioTooLongError).code, 'audio_too_long');
    assert.is((error as AudioTooLongError).maxDurationSeconds, 1.5);
  }
});

test('probing reports format, codec, channels and duration', async () => {
  const probe = await probeAudio(encodings[3].path);
  assert.is(probe.format, 'ogg_opus');
  assert.is(probe.codec, 'opus');
  assert.is(probe.channelCount, 2);
  assert.ok(probe.durationSeconds !== null && Math.abs(probe.durationSeconds - 2) < 0.1);
});

test.after(() => rmSync(directory, { recursive: true, force: true }));

test.run();
