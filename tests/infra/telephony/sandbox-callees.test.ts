import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { calleeBehaviour, ringSecondsBeforeAnswer } from '../../../infra/telephony/sandbox-callees.ts';
import { estimateSpeechSeconds } from '../../../infra/telephony/speech-timing.ts';
import { SandboxTelephony } from '../../../infra/telephony/sandbox.ts';

test('behaviour by the last two digits, as documented', () => {
  const table: Array<[string, string]> = [
    ['+919876500000', 'never_answers'],
    ['+919876500001', 'busy'],
    ['+919876500002', 'invalid_number'],
    ['+919876500003', 'affirms'],
    ['+919876500004', 'declines'],
    ['+919876500005', 'callback_later'],
    ['+919876500006', 'requests_human'],
    ['+919876500007', 'stop_calling'],
    ['+919876500009', 'silent'],
  ];
  for (const [phone, behaviour] of table) assert.is(calleeBehaviour(phone, 1), behaviour, phone);
});

test('08: no answer on the first attempt, affirms on later ones', () => {
  assert.is(calleeBehaviour('+919876500008', 1), 'never_answers');
  assert.is(calleeBehaviour('+919876500008', 2), 'affirms');
  assert.is(calleeBehaviour('+919876500008', 5), 'affirms');
});

test('other endings: one of 03-07, fixed per number, and all five occur', () => {
  const seen = new Set<string>();
  for (let number = 10; number < 100; number++) {
    const phone = `+91987650${String(number * 37).padStart(4, '0')}${number}`;
    const behaviour = calleeBehaviour(phone, 1);
    assert.is(calleeBehaviour(phone, 3), behaviour);
    seen.add(behaviour);
  }
  assert.equal([...seen].sort(), ['affirms', 'callback_later', 'declines', 'requests_human', 'stop_calling']);
});

test('ring time before answer is 2 to 6 seconds, fixed per number', () => {
  for (let number = 0; number < 50; number++) {
    const seconds = ringSecondsBeforeAnswer(`+91987650${String(number).padStart(4, '0')}`);
    assert.ok(seconds >= 2 && seconds <= 6);
  }
  assert.is(ringSecondsBeforeAnswer('+919876500003'), ringSecondsBeforeAnswer('+919876500003'));
});

test('speech duration estimate grows with the text and counts an akshara once', () => {
  assert.is(estimateSpeechSeconds('', 'en-IN'), 0);
  assert.ok(estimateSpeechSeconds('Hello there, how are you today?', 'en-IN') > estimateSpeechSeconds('Hello', 'en-IN'));
  // "नमस्ते": न म स ् त े → letters न म स त (virama and vowel sign are marks).
  assert.is(estimateSpeechSeconds('नमस्ते', 'hi-IN'), Math.round((0.5 + 4 / 7.3) * 100) / 100);
  assert.ok(estimateSpeechSeconds('5000', 'en-IN') > estimateSpeechSeconds('five', 'en-IN'));
});

test('unreachable numbers: ring times and outcomes of the carrier', async () => {
  const carrier = new SandboxTelephony({ sampleReplies: {} });
  const placed = (ending: string, attempt = 1) => carrier.placeCall({ callId: 'cal_x', to: `+9198765000${ending}`, language: 'en-IN', attempt, wantCustomerAudio: false });
  assert.equal(await placed('00'), { outcome: 'no_answer', ringSeconds: 30 });
  assert.equal(await placed('01'), { outcome: 'busy', ringSeconds: 1 });
  assert.equal(await placed('02'), { outcome: 'invalid_number', ringSeconds: 1, detail: 'the number does not exist' });
  assert.is((await placed('08')).outcome, 'no_answer');
  assert.is((await placed('08', 2)).outcome, 'answered');
});

test.run();
