// Recognition of real recorded English (LibriVox and CMU clips from Debian's pocketsphinx-testdata, installed by
// scripts/setup.sh), as recorded and through an 8 kHz G.711 round trip. The bounds are the WER measured when
// this test was written plus a margin (docs/speech.md, "Evaluation sets"); broken recognition (a wrong sample
// rate, a wrong model, telephone-band audio passed to the wideband model as it is) measures 90-100%.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PocketSphinxRecognizer } from '../../../infra/speech/pocketsphinx.ts';
import { highBandShareDb, isTelephoneBand } from '../../../infra/speech/telephone-band.ts';
import { realSpeechClips, realSpeechInstalled, scoreClips, underCondition, type SpeechClip } from '../../../bench/speech-sets.ts';

/** Measured 2026-11-26 on these 4 clips (39 words): 16 kHz 33.3%, 8 kHz µ-law 28.2% (100% before the fold). */
const BOUND_16K = 0.5;
const BOUND_8K = 0.5;
const CLIP_IDS = ['librivox/sense_and_sensibility_01_austen_64kb-0880', 'librivox/sense_and_sensibility_01_austen_64kb-0920', 'librivox/sense_and_sensibility_01_austen_64kb-0930', 'goforward'];

let clips: SpeechClip[] = [];
const recognizer = new PocketSphinxRecognizer({ concurrency: 1 });

test.before(async () => {
  assert.ok(realSpeechInstalled(), 'pocketsphinx-testdata is missing: run `bash scripts/setup.sh` as root');
  clips = (await realSpeechClips()).filter((clip) => CLIP_IDS.includes(clip.id));
  assert.is(clips.length, CLIP_IDS.length);
});

test('telephone-band audio is told apart from wideband speech', async () => {
  for (const clip of clips.slice(0, 2)) {
    const wide = highBandShareDb(clip.pcm16k);
    const narrow = highBandShareDb(await underCondition(clip.pcm16k, '8k-mulaw'));
    assert.ok(wide > -35, `${clip.id} recorded: ${wide.toFixed(1)} dB above 4 kHz`);
    assert.ok(narrow < -40, `${clip.id} through G.711: ${narrow.toFixed(1)} dB above 4 kHz`);
  }
  assert.ok(isTelephoneBand(await underCondition(clips[0]!.pcm16k, '8k-alaw')));
  assert.not.ok(isTelephoneBand(clips[0]!.pcm16k));
});

test(`real read speech at 16 kHz: WER under ${BOUND_16K * 100}%`, async () => {
  const score = await scoreClips(clips, '16k', recognizer);
  assert.ok(score.totalRate < BOUND_16K, `WER ${(score.totalRate * 100).toFixed(1)}%: ${JSON.stringify(score.clips.map((clip) => clip.hypothesis))}`);
});

test(`real read speech through 8 kHz G.711 µ-law: WER under ${BOUND_8K * 100}%`, async () => {
  const score = await scoreClips(clips, '8k-mulaw', recognizer);
  assert.ok(score.totalRate < BOUND_8K, `WER ${(score.totalRate * 100).toFixed(1)}%: ${JSON.stringify(score.clips.map((clip) => clip.hypothesis))}`);
});

test.run();
