import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sampleReplies } from '../../../infra/analysis/customer-reply.ts';
import { createSandboxTelephony } from '../../../infra/telephony/create-telephony.ts';
import { createConversationEngine } from '../../../processes/calling/create-conversation-engine.ts';
import { attemptOutcomeOf } from '../../../processes/calling/conversation-result.ts';
import { SANDBOX_TIMING } from '../../../infra/telephony/sandbox.ts';
import { scripts, variables } from './fixtures.ts';

// The engine over the sandbox carrier, one test per row of the magic-number table, in English and Hindi, with
// the analysis module's real reply classifier and sample replies. Recording is off here (see call-recording).

const engine = createConversationEngine({ telephony: createSandboxTelephony() });

const languages = [
  { code: 'en-IN', script: scripts.en, replies: sampleReplies.en },
  { code: 'hi-IN', script: scripts.hi, replies: sampleReplies.hi },
] as const;

function call(language: (typeof languages)[number], ending: string, attempt = 1) {
  const phone = `+9198765000${ending}`;
  return engine.run({ callId: `cal_${ending}_${attempt}`, phone, language: language.code, attempt, script: language.script, variables: { ...variables, phone }, recording: false });
}

const answeredRows = [
  ['03', 'interested', 'affirm'],
  ['04', 'not_interested', 'deny'],
  ['05', 'callback', 'callback_later'],
  ['06', 'escalated', 'request_human'],
  ['07', 'dnd', 'stop_calling'],
] as const;

for (const language of languages) {
  for (const [ending, disposition, intent] of answeredRows) {
    test(`${language.code} …${ending}: answered, the customer's ${intent} reply gives ${disposition}`, async () => {
      const result = await call(language, ending);
      assert.is(result.outcome, 'answered');
      assert.is(result.disposition, disposition);
      assert.is(attemptOutcomeOf(result), 'connected');
      const reply = result.turns.find((turn) => turn.speaker === 'customer')!;
      assert.ok((language.replies[intent] as string[]).includes(reply.text), `${reply.text} is a ${language.code} ${intent} sample`);
      assert.is(reply.intent, intent);
      assert.is(reply.confidence, 1, 'the sandbox gives the customer words: exact');
      assert.ok(result.ringSeconds >= 2 && result.ringSeconds <= 6);
      assert.is(result.turns[0]!.start_seconds, SANDBOX_TIMING.firstPromptDelaySeconds);
      for (let index = 1; index < result.turns.length; index++) {
        assert.ok(result.turns[index]!.start_seconds >= result.turns[index - 1]!.end_seconds, 'turns do not overlap');
      }
      assert.ok(Math.abs(result.talkSeconds - (result.turns.at(-1)!.end_seconds + SANDBOX_TIMING.hangUpDelaySeconds)) < 1e-6);
      assert.is(result.durationSeconds, Math.round(result.talkSeconds));
      if (disposition === 'escalated') {
        assert.is(result.escalation!.reason, 'customer_requested_agent');
        assert.is(result.escalation!.atSeconds, reply.end_seconds);
        assert.ok(result.escalation!.summary.includes(reply.text));
      } else assert.is(result.escalation, null);
    });
  }

  test(`${language.code} …09: answers and stays silent → re-prompted once, then the no_input route`, async () => {
    const result = await call(language, '09');
    assert.is(result.disposition, 'callback');
    assert.equal(result.turns.map((turn) => `${turn.speaker}:${turn.step_id}`), ['agent:greet', 'agent:greet', 'agent:goodbye']);
    // Each silence lasts the step's timeout.
    assert.ok(result.turns[1]!.start_seconds - result.turns[0]!.end_seconds >= 5);
  });

  test(`${language.code} …00 and …01: not reached (no answer after 30 s, busy), not_reachable, 0 s`, async () => {
    const noAnswer = await call(language, '00');
    assert.equal([noAnswer.outcome, noAnswer.disposition, noAnswer.durationSeconds, noAnswer.ringSeconds, noAnswer.failure], ['no_answer', 'not_reachable', 0, 30, null]);
    const busy = await call(language, '01');
    assert.equal([busy.outcome, busy.disposition, busy.durationSeconds, busy.failure], ['busy', 'not_reachable', 0, null]);
    assert.is(attemptOutcomeOf(busy), 'busy');
  });

  test(`${language.code} …02: the number does not exist → failed, not retried`, async () => {
    const result = await call(language, '02');
    assert.is(result.outcome, 'invalid_number');
    assert.equal(result.failure, { reason: 'invalid_number', detail: 'the number does not exist' });
    assert.is(attemptOutcomeOf(result), 'invalid_number');
  });

  test(`${language.code} …08: first attempt not reached, second attempt interested`, async () => {
    const first = await call(language, '08', 1);
    assert.is(first.outcome, 'no_answer');
    const second = await call(language, '08', 2);
    assert.is(second.disposition, 'interested');
  });
}

test('other endings behave as one of 03-07 and always reach a disposition', async () => {
  const seen = new Set<string>();
  for (let number = 10; number < 60; number++) {
    const result = await call(languages[0], String(number));
    assert.is(result.outcome, 'answered');
    seen.add(result.disposition);
  }
  assert.equal([...seen].sort(), ['callback', 'dnd', 'escalated', 'interested', 'not_interested']);
});

test('the same call twice gives the same conversation (deterministic callees)', async () => {
  const one = await call(languages[1], '05');
  const two = await call(languages[1], '05');
  assert.equal(one.turns, two.turns);
});

test('benchmark: engine + sandbox calls per second, recording off (no synthesis)', async () => {
  const endings = ['03', '04', '05', '06', '07', '09', '00', '01', '02', '37'];
  const run = (count: number, offset: number) =>
    Promise.all(
      Array.from({ length: count }, (_, index) => {
        const phone = `+91987${String(offset + index).padStart(5, '0')}${endings[index % endings.length]}`;
        const language = languages[index % 2]!;
        return engine.run({ callId: `cal_${index}`, phone, language: language.code, attempt: 1, script: language.script, variables: { ...variables, phone }, recording: false });
      }),
    );
  await run(2_000, 0); // warm-up: JIT, classifier indexes
  const calls = 20_000;
  const started = performance.now();
  const results = await run(calls, 10_000);
  const seconds = (performance.now() - started) / 1000;
  const perSecond = Math.round(calls / seconds);
  console.log(`  engine + sandbox, recording off: ${calls} calls in ${(seconds * 1000).toFixed(0)} ms = ${perSecond} calls/s (${((seconds * 1e6) / calls).toFixed(1)} µs per call)`);
  assert.is(results.length, calls);
  // 1,000 calls must finish in well under a second; the end-to-end target is ≥ 300 calls/s.
  assert.ok(perSecond > 3_000, `only ${perSecond} calls/s`);
});

test.run();
