import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConversationEngine } from '../../../processes/calling/conversation-engine.ts';
import type { ReplyClassifier } from '../../../processes/calling/conversation-ports.ts';
import { callCommandFor, attemptOutcomeOf, escalationSummary } from '../../../processes/calling/conversation-result.ts';
import type { CallSession, CustomerInput, PlaceCallRequest, PlaceCallResult, Prompt, Telephony, TransferRequest, TransferResult } from '../../../infra/telephony/port.ts';
import type { Script } from '../../../domain/script-types.ts';
import { scripts, variables } from './fixtures.ts';

// The engine over a scripted fake line: routing by DTMF and intent, re-prompts, no input, hang-up, templates,
// and the translation of its result into commands. (The sandbox carrier's table is tested in sandbox-calls.)

type Reply = { dtmf: string } | { say: string } | 'silence' | 'hangup';

/** A line whose customer gives the listed replies in order, one second after each prompt. */
function scriptedLine(
  replies: Reply[],
  outcome: PlaceCallResult['outcome'] = 'answered',
  transfer?: (request: TransferRequest, at: number) => TransferResult,
): Telephony & { prompts: Prompt[]; placed: PlaceCallRequest[]; transfers: TransferRequest[] } {
  const transfers: TransferRequest[] = [];
  const prompts: Prompt[] = [];
  const placed: PlaceCallRequest[] = [];
  return {
    name: 'fake',
    needsPromptAudio: false,
    timeScale: 1,
    prompts,
    placed,
    transfers,
    async placeCall(placing) {
      placed.push(placing);
      if (outcome !== 'answered') return { outcome, ringSeconds: 30 };
      let cursor = 0;
      const session: CallSession = {
        async play(prompt) {
          prompts.push(prompt);
          const startSeconds = cursor + 0.5;
          cursor = startSeconds + 2;
          return { startSeconds, endSeconds: cursor };
        },
        async listen({ timeoutSeconds }): Promise<CustomerInput> {
          const reply = replies.shift() ?? 'silence';
          const startSeconds = cursor + 1;
          if (reply === 'silence') {
            cursor += timeoutSeconds;
            return { kind: 'silence', startSeconds: cursor - timeoutSeconds, endSeconds: cursor };
          }
          if (reply === 'hangup') return { kind: 'hangup', startSeconds: cursor, endSeconds: cursor };
          cursor = startSeconds + 1;
          return 'dtmf' in reply ? { kind: 'dtmf', digits: reply.dtmf, startSeconds, endSeconds: cursor } : { kind: 'speech', text: reply.say, startSeconds, endSeconds: cursor };
        },
        async hangUp() {
          cursor += 0.5;
          return { endSeconds: cursor };
        },
      };
      if (transfer) {
        session.transfer = async (transferRequest) => {
          transfers.push(transferRequest);
          const result = transfer(transferRequest, cursor);
          cursor = result.kind === 'bridged' ? result.bridgedSeconds + result.agentAudio.pcm.length / result.agentAudio.sampleRate : result.endedSeconds;
          return result;
        };
      }
      return { outcome: 'answered', ringSeconds: 4, session };
    },
  };
}

/** A stand-in for the analysis module's classifier: one English keyword per intent, plus the route extras. */
const classifyReply: ReplyClassifier = (text, _language, extras) => {
  const lower = text.toLowerCase();
  const words: Record<string, string[]> = { affirm: ['yes'], deny: ['no'], callback_later: ['later'], request_human: ['human'], stop_calling: ['never'], wrong_person: ['wrong'] };
  for (const [intent, list] of Object.entries(extras ?? {})) words[intent] = [...(words[intent] ?? []), ...list];
  for (const [intent, list] of Object.entries(words)) if (list.some((word) => lower.includes(word))) return { intent: intent as 'affirm', confidence: 0.9 };
  return { intent: null, confidence: 0 };
};

const speech = {
  async synthesize(): Promise<never> {
    throw new Error('no synthesis expected with recording off on a text line');
  },
};

function engineFor(line: Telephony) {
  return new ConversationEngine({ telephony: line, speech, classifyReply });
}

const request = { callId: 'cal_1', phone: '+919876500003', language: 'en-IN', attempt: 1, script: scripts.en, variables, recording: false };

test('speech routed by intent: template filled, turns timed from answer, disposition from the route', async () => {
  const line = scriptedLine([{ say: 'yes please' }]);
  const result = await engineFor(line).run(request);
  assert.is(line.prompts[0]!.text, 'Hello Asha, this is Sunrise Finance. Would you like to renew your loan of 5000 rupees?');
  assert.is(result.disposition, 'interested');
  assert.equal(
    result.turns.map((turn) => [turn.speaker, turn.step_id, turn.start_seconds, turn.end_seconds, turn.intent]),
    [
      ['agent', 'greet', 0.5, 2.5, undefined],
      ['customer', 'greet', 3.5, 4.5, 'affirm'],
      ['agent', 'confirm', 5, 7, undefined],
    ],
  );
  assert.is(result.talkSeconds, 7.5);
  assert.is(result.durationSeconds, 8);
  assert.is(attemptOutcomeOf(result), 'connected');
});

test('DTMF selects the route with those digits', async () => {
  const result = await engineFor(scriptedLine([{ dtmf: '3' }])).run(request);
  assert.is(result.disposition, 'callback');
  assert.equal(result.turns[1]!.dtmf, '3');
  assert.is(result.turns[1]!.text, '[pressed 3]');
});

test('the call\'s caller id reaches the carrier; without one the carrier picks its default', async () => {
  const withOwn = scriptedLine([], 'busy');
  await engineFor(withOwn).run({ ...request, callerId: '+911600123456' });
  assert.is(withOwn.placed[0]!.callerId, '+911600123456');
  const without = scriptedLine([], 'busy');
  await engineFor(without).run(request);
  assert.is(without.placed[0]!.callerId, undefined);
});

test('route keywords reach the classifier as extras', async () => {
  const script: Script = structuredClone(scripts.en);
  script.steps[0]!.listen!.routes[0]!.keywords = ['sign me up'];
  const result = await engineFor(scriptedLine([{ say: 'Sign me up!' }])).run({ ...request, script });
  assert.is(result.disposition, 'interested');
});

test('silence: one re-prompt, then the no_input route', async () => {
  const line = scriptedLine(['silence', 'silence']);
  const result = await engineFor(line).run(request);
  assert.equal(line.prompts.map((prompt) => prompt.text.slice(0, 5)), ['Hello', 'Hello', 'Thank']);
  assert.is(result.disposition, 'callback');
  assert.is(result.turns.filter((turn) => turn.speaker === 'customer').length, 0);
});

test('an unrecognised reply is re-prompted once; a recognised second reply is routed', async () => {
  const result = await engineFor(scriptedLine([{ say: 'hmm, what?' }, { say: 'no thanks' }])).run(request);
  assert.is(result.disposition, 'not_interested');
  assert.equal(result.turns.map((turn) => ('intent' in turn ? turn.intent : '-')), ['-', null, '-', 'deny', '-']);
});

test('escalation: disposition escalated, a one-line summary, the transfer step still spoken', async () => {
  const line = scriptedLine([{ say: 'let me talk to a human' }]);
  const result = await engineFor(line).run(request);
  assert.is(result.disposition, 'escalated');
  assert.is(result.escalation!.reason, 'customer_requested_agent');
  assert.is(result.escalation!.atSeconds, 4.5);
  assert.ok(!result.escalation!.summary.includes('\n'));
  assert.match(result.escalation!.summary, /let me talk to a human/);
  assert.is(line.prompts.at(-1)!.text, 'Please hold, I am connecting you to an agent.');
  const command = callCommandFor(result, new Date('2026-03-02T04:00:00.000Z'));
  assert.is(command.type, 'RecordCallResult');
  if (command.type !== 'RecordCallResult') return;
  assert.is(command.data.answered_at, '2026-03-02T04:00:04.000Z');
  assert.is(command.data.escalation!.escalated_at, '2026-03-02T04:00:08.500Z');
  assert.is(command.data.ended_at, '2026-03-02T04:00:11.500Z');
});

test('warm transfer: the runner\'s agent is dialled with the whispered summary; bridged, the call stays escalated with the transfer\'s times', async () => {
  const whispers: Array<{ text: string; language: string }> = [];
  const whisperSpeech = {
    async synthesize(text: string, language: string) {
      whispers.push({ text, language });
      return { pcm: new Int16Array(800), sampleRate: 8000 };
    },
  };
  const line = scriptedLine([{ say: 'let me talk to a human' }], 'answered', (_request, at) => ({
    kind: 'bridged',
    dialledSeconds: at,
    agentAnsweredSeconds: at + 2,
    bridgedSeconds: at + 5,
    endedBy: 'customer',
    agentAudio: { pcm: new Int16Array(8000 * 20), sampleRate: 8000 },
  }));
  const engine = new ConversationEngine({ telephony: line, speech: whisperSpeech, classifyReply });
  const target = { sipUri: 'sip:asha@agents.example', phone: null };
  const result = await engine.run({ ...request, transferAgent: async () => ({ agentId: 'agt_1', target }) });
  assert.equal(line.transfers.map((transfer) => transfer.target), [target]);
  assert.is(whispers.length, 1);
  assert.is(whispers[0]!.language, 'en-IN');
  assert.match(whispers[0]!.text, /^Transferred call from Asha\. Customer asked for a human agent/);
  assert.is(result.disposition, 'escalated');
  assert.is(result.customerHungUp, true, 'the customer ended the bridged call');
  assert.equal(result.transfer, { agentId: 'agt_1', dialledAtSeconds: 7, agentAnsweredAtSeconds: 9 }, 'dialled once the closing prompt ended (7 s)');
  assert.is(result.talkSeconds, 32.5, 'the call lasts through the bridge (bridged at 12 s, 20 s of it)');
  const command = callCommandFor(result, new Date('2026-03-02T04:00:00.000Z'));
  assert.equal(command.type === 'RecordCallResult' && command.data.transfer, { agent_id: 'agt_1', transferred_at: '2026-03-02T04:00:11.000Z', agent_answered_at: '2026-03-02T04:00:13.000Z' });
});

test('warm transfer not answered: the fallback in the call\'s language, disposition callback; no agent or no carrier support: no transfer', async () => {
  const noAnswer = (_request: TransferRequest, at: number): TransferResult => ({ kind: 'not_answered', dialledSeconds: at, endedSeconds: at + 20, detail: 'no answer', customerHungUp: false });
  const audio = { async synthesize() { return { pcm: new Int16Array(800), sampleRate: 8000 }; } };
  const line = scriptedLine([{ say: 'let me talk to a human' }], 'answered', noAnswer);
  const result = await new ConversationEngine({ telephony: line, speech: audio, classifyReply }).run({ ...request, language: 'hi-IN', transferAgent: async () => ({ agentId: 'agt_1', target: { sipUri: null, phone: '+919800000001' } }) });
  assert.is(result.disposition, 'callback');
  assert.equal(result.transfer, { agentId: 'agt_1', dialledAtSeconds: 7, agentAnsweredAtSeconds: null });
  const fallback = result.turns.at(-1)!;
  assert.equal([fallback.speaker, fallback.step_id, fallback.start_seconds >= 27], ['agent', 'transfer_fallback', true]);
  assert.match(fallback.text, /एजेंट/, 'said in Hindi');
  const command = callCommandFor(result, new Date('2026-03-02T04:00:00.000Z'));
  assert.equal(command.type === 'RecordCallResult' && [command.data.disposition, command.data.transfer!.agent_answered_at], ['callback', null]);

  // Nobody to transfer to, or a carrier without transfer (the sandbox): the call ends escalated, untouched.
  const nobody = scriptedLine([{ say: 'let me talk to a human' }], 'answered', noAnswer);
  const unassigned = await new ConversationEngine({ telephony: nobody, speech: audio, classifyReply }).run({ ...request, transferAgent: async () => null });
  assert.equal([unassigned.disposition, unassigned.transfer, nobody.transfers.length], ['escalated', null, 0]);
  const plain = await engineFor(scriptedLine([{ say: 'let me talk to a human' }])).run({ ...request, transferAgent: async () => ({ agentId: 'agt_1', target: { sipUri: null, phone: '+919800000001' } }) });
  assert.equal([plain.disposition, plain.transfer], ['escalated', null]);
});

test('the customer hanging up ends the conversation with the fallback disposition', async () => {
  const result = await engineFor(scriptedLine(['hangup'])).run(request);
  assert.ok(result.customerHungUp);
  assert.is(result.disposition, 'not_interested');
});

test('not answered: no turns, not_reachable, duration 0; invalid number fails', async () => {
  const noAnswer = await engineFor(scriptedLine([], 'no_answer')).run(request);
  assert.equal([noAnswer.answered, noAnswer.disposition, noAnswer.durationSeconds, noAnswer.failure], [false, 'not_reachable', 0, null]);
  assert.is(attemptOutcomeOf(noAnswer), 'no_answer');
  const command = callCommandFor(noAnswer, new Date('2026-03-02T04:00:00.000Z'));
  assert.equal(command, {
    type: 'RecordCallResult',
    data: { answered_at: null, turns: [], escalation: null, disposition: 'not_reachable', duration_seconds: 0, ended_at: '2026-03-02T04:00:30.000Z' },
  });
  const invalid = await engineFor(scriptedLine([], 'invalid_number')).run(request);
  assert.equal(invalid.failure, { reason: 'invalid_number', detail: 'invalid_number' });
  assert.is(callCommandFor(invalid, new Date()).type, 'FailCall');
});

test('a carrier that throws while placing the call is a carrier_error failure', async () => {
  const broken: Telephony = { name: 'broken', needsPromptAudio: false, timeScale: 1, placeCall: () => Promise.reject(new Error('trunk down')) };
  const result = await engineFor(broken).run(request);
  assert.equal(result.failure, { reason: 'carrier_error', detail: 'trunk down' });
});

test('a looping script is cut off after maxSpokenSteps', async () => {
  const script: Script = { name: 'loop', single_call_enabled: true, steps: [{ id: 'a', say: 'again', next: 'a' }] };
  const engine = new ConversationEngine({ telephony: scriptedLine([]), speech, classifyReply, maxSpokenSteps: 5 });
  const result = await engine.run({ ...request, script });
  assert.is(result.turns.length, 5);
});

test('escalationSummary is one line with the last prompt and reply', () => {
  const summary = escalationSummary([
    { speaker: 'agent', text: 'Renew?', start_seconds: 0, end_seconds: 1 },
    { speaker: 'customer', text: 'Give me\na person', start_seconds: 2, end_seconds: 3 },
  ]);
  assert.is(summary, 'Customer asked for a human agent after 1 reply; agent: "Renew?"; customer: "Give me a person".');
});

test.run();
