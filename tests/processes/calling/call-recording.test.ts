import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeWav } from '../../../infra/speech/wav.ts';
import { createSandboxTelephony } from '../../../infra/telephony/create-telephony.ts';
import { createConversationEngine } from '../../../processes/calling/create-conversation-engine.ts';
import type { ConversationResult } from '../../../processes/calling/conversation-result.ts';
import { scripts, variables } from './fixtures.ts';

// Recorded calls with real offline synthesis (espeak-ng; Festival for English when installed): a stereo WAV with
// the agent on the left and the customer on the right, as long as the call, speech where the turns say.

const engine = createConversationEngine({ telephony: createSandboxTelephony() });

function rms(samples: Int16Array, fromSeconds: number, toSeconds: number, sampleRate: number): number {
  const from = Math.max(0, Math.floor(fromSeconds * sampleRate));
  const to = Math.min(samples.length, Math.ceil(toSeconds * sampleRate));
  let sum = 0;
  for (let index = from; index < to; index++) sum += samples[index]! * samples[index]!;
  return to > from ? Math.sqrt(sum / (to - from)) : 0;
}

function checkRecording(result: ConversationResult): void {
  assert.ok(result.recording, 'a recording');
  const audio = decodeWav(result.recording!.wav);
  assert.is(audio.channels.length, 2);
  assert.is(audio.sampleRate, 16_000);
  const [left, right] = audio.channels as [Int16Array, Int16Array];
  const seconds = left.length / audio.sampleRate;
  assert.ok(Math.abs(seconds - result.durationSeconds) <= 1, `WAV ${seconds} s vs duration_seconds ${result.durationSeconds}`);
  assert.ok(Math.abs(seconds - result.talkSeconds) < 0.01);
  for (const turn of result.turns) {
    const [speaking, quiet] = turn.speaker === 'agent' ? [left, right] : [right, left];
    const loud = rms(speaking, turn.start_seconds, turn.end_seconds, audio.sampleRate);
    const silent = rms(quiet, turn.start_seconds, turn.end_seconds, audio.sampleRate);
    assert.ok(loud > 300, `${turn.speaker} turn "${turn.text}" has speech on its channel (RMS ${loud.toFixed(0)})`);
    assert.ok(silent < 1, `${turn.speaker} turn "${turn.text}" is silent on the other channel (RMS ${silent.toFixed(0)})`);
  }
  // Before the first word and between turns the line is quiet on both sides.
  assert.ok(rms(left, 0, result.turns[0]!.start_seconds, audio.sampleRate) < 1);
}

for (const [language, script] of [['en-IN', scripts.en], ['hi-IN', scripts.hi]] as const) {
  test(`${language}: a recorded call (…03) is a stereo WAV matching the call's timeline`, async () => {
    const phone = '+919876500003';
    const result = await engine.run({ callId: 'cal_rec', phone, language, attempt: 1, script, variables: { ...variables, phone }, recording: true });
    assert.is(result.disposition, 'interested');
    assert.equal(result.turns.map((turn) => turn.speaker), ['agent', 'customer', 'agent']);
    checkRecording(result);
  });
}

test('hi-IN: an escalated call (…06) and a silent one (…09) are recorded too', async () => {
  for (const ending of ['06', '09']) {
    const phone = `+9198765000${ending}`;
    const result = await engine.run({ callId: `cal_${ending}`, phone, language: 'hi-IN', attempt: 1, script: scripts.hi, variables: { ...variables, phone }, recording: true });
    checkRecording(result);
  }
});

test('recorded and unrecorded runs of a call differ in timings by under a second per turn (duration estimates)', async () => {
  for (const [language, script] of [['en-IN', scripts.en], ['hi-IN', scripts.hi]] as const) {
    const phone = '+919876500004';
    const run = (recording: boolean) => engine.run({ callId: 'cal_est', phone, language, attempt: 1, script, variables: { ...variables, phone }, recording });
    const [recorded, estimated] = [await run(true), await run(false)];
    recorded.turns.forEach((turn, index) => {
      const length = turn.end_seconds - turn.start_seconds;
      const estimate = estimated.turns[index]!.end_seconds - estimated.turns[index]!.start_seconds;
      assert.ok(Math.abs(length - estimate) < 1, `${language} "${turn.text}": audio ${length.toFixed(2)} s, estimate ${estimate.toFixed(2)} s`);
    });
  }
});

test('a call that is not answered has no recording', async () => {
  const result = await engine.run({ callId: 'cal_00', phone: '+919876500000', language: 'en-IN', attempt: 1, script: scripts.en, variables, recording: true });
  assert.is(result.recording, null);
});

test.run();
