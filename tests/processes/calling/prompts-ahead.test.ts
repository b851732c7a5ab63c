import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ScriptStep } from '../../../domain/script-types.ts';
import type { AudioClip, CallSession, CustomerInput, ListenOptions, Prompt, Telephony } from '../../../infra/telephony/port.ts';
import { ConversationEngine } from '../../../processes/calling/conversation-engine.ts';
import type { ConversationSpeech, LiveRecognition, ReplyClassifier } from '../../../processes/calling/conversation-ports.ts';
import { PromptsAhead, stepsAfter } from '../../../processes/calling/prompts-ahead.ts';
import { scripts, variables } from './fixtures.ts';

// Issue 17's latency work in the engine: the prompts an answer may lead to are synthesised while the customer
// answers (bounded), the script's language model is asked for at call start, and a live recognition hears the
// answer while it is spoken. Fakes stand in for the line and the speech tools (the real ones: sip-conversation and
// bench:sip).

const stepsOf = (list: ScriptStep[]) => new Map(list.map((step) => [step.id, step]));
const clip = (samples: number): AudioClip => ({ pcm: new Int16Array(samples), sampleRate: 16_000 });
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('given a listening step, its candidates are the routes\' targets, then no input\'s, then its next: distinct, bounded', () => {
  const steps = stepsOf(scripts.en.steps);
  const greet = steps.get('greet')!;
  assert.equal(stepsAfter(greet, steps, 3).map((step) => step.id), ['confirm', 'goodbye', 'callback']);
  assert.equal(stepsAfter(greet, steps, 10).map((step) => step.id), ['confirm', 'goodbye', 'callback', 'transfer', 'dnd']);
  assert.equal(stepsAfter(steps.get('confirm')!, steps, 3), [], 'a step that does not listen leads nowhere by an answer');
  const looping: ScriptStep = {
    id: 'ask',
    say: 'Again?',
    next: 'after',
    listen: { timeout_seconds: 5, routes: [{ intent: 'affirm', next: 'ask' }, { intent: 'deny', next: 'missing' }], no_input: { retries: 0 } },
  };
  const after: ScriptStep = { id: 'after', say: 'Then this.', end: true };
  assert.equal(stepsAfter(looping, stepsOf([looping, after]), 3).map((step) => step.id), ['after'], 'itself and unknown ids are left out; next falls through');
});

test('given more candidates than the bound, only the first maxPrompts are synthesised and kept', async () => {
  const asked: string[] = [];
  const ahead = new PromptsAhead(async (text) => (asked.push(text), clip(100)), { maxPrompts: 2, maxBytes: 1_000_000 });
  ahead.prepare(['one', 'two', 'two', 'three', '  ']);
  await settle();
  assert.equal(asked, ['one', 'two']);
  assert.is(ahead.size, 2);
  assert.is(ahead.bytes, 400);
  assert.ok(ahead.take('two'));
  assert.is(ahead.take('two'), undefined, 'taken once');
  assert.is(ahead.take('three'), undefined, 'beyond the bound: synthesised when needed');
});

test('given audio over the byte bound, what does not fit is not kept', async () => {
  const ahead = new PromptsAhead(async (text) => clip(text === 'long' ? 400_000 : 1000), { maxPrompts: 3, maxBytes: 500_000 });
  ahead.prepare(['short', 'long', 'other']);
  await settle();
  assert.ok(ahead.bytes <= 500_000, `${ahead.bytes} bytes kept`);
  assert.is(ahead.size, 2);
  assert.is(ahead.take('long'), undefined);
});

test('given the next step\'s candidates, the previous step\'s are dropped (those still waiting never synthesised), a shared one is not synthesised twice, failures are not kept', async () => {
  const asked: string[] = [];
  const ahead = new PromptsAhead(async (text) => {
    asked.push(text);
    if (text === 'broken') throw new Error('no voice');
    return clip(10);
  });
  ahead.prepare(['a', 'b', 'broken']);
  ahead.prepare(['b', 'c']);
  await settle();
  assert.equal(asked, ['a', 'b', 'c']);
  assert.is(ahead.take('a'), undefined);
  assert.ok(ahead.take('b'));
  assert.ok(ahead.take('c'));
  ahead.prepare(['broken']);
  await settle();
  assert.is(ahead.take('broken'), undefined);
});

test('given several candidates, they are synthesised one at a time in order; one taken while waiting starts at once', async () => {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const ahead = new PromptsAhead(
    (text) =>
      new Promise<AudioClip>((resolve) => {
        started.push(text);
        finish.set(text, () => resolve(clip(10)));
      }),
  );
  ahead.prepare(['likely', 'less', 'least']);
  await settle();
  assert.equal(started, ['likely'], 'one at a time');
  finish.get('likely')!();
  await settle();
  assert.equal(started, ['likely', 'less']);
  const least = ahead.take('least');
  assert.ok(least);
  assert.equal(started, ['likely', 'less', 'least'], 'the one needed does not wait its turn');
  finish.get('least')!();
  assert.equal((await least!).pcm.length, 10);
  finish.get('less')!();
  await settle();
  assert.equal(started, ['likely', 'less', 'least'], 'nothing synthesised twice');
});

/** A real-line stand-in: needs prompt audio; the customer answers the first listen with speech, heard live. */
function audioLine(answer: 'speech' | 'silence', events: string[]): Telephony {
  return {
    name: 'fake-line',
    needsPromptAudio: true,
    timeScale: 1,
    async placeCall() {
      let cursor = 0;
      const session: CallSession = {
        async play(prompt: Prompt) {
          events.push(`play ${prompt.text} (${prompt.audio?.pcm.length ?? 0} samples)`);
          const startSeconds = cursor;
          cursor += 2;
          return { startSeconds, endSeconds: cursor };
        },
        async listen(options: ListenOptions): Promise<CustomerInput> {
          if (answer === 'silence') {
            cursor += options.timeoutSeconds;
            return { kind: 'silence', startSeconds: cursor - options.timeoutSeconds, endSeconds: cursor };
          }
          // The answer arrives in pieces while it is spoken.
          options.hear?.({ pcm: new Int16Array(800), sampleRate: 8000 });
          options.hear?.({ pcm: new Int16Array(800), sampleRate: 8000 });
          cursor += 1;
          return { kind: 'speech', audio: { pcm: new Int16Array(1600), sampleRate: 8000 }, startSeconds: cursor - 1, endSeconds: cursor };
        },
        async hangUp() {
          return { endSeconds: cursor };
        },
      };
      return { outcome: 'answered', ringSeconds: 1, session };
    },
  };
}

function recordingSpeech(events: string[]): ConversationSpeech {
  return {
    async synthesize(text) {
      events.push(`synthesise ${text}`);
      return clip(text.length);
    },
    async recognize() {
      events.push('recognise after the answer');
      return { text: 'no', confidence: 0.5 };
    },
    prepare(language, context) {
      events.push(`prepare ${language} ${context.script.name}`);
    },
    hearLive(): LiveRecognition {
      let heard = 0;
      return {
        hear(chunk) {
          heard += chunk.pcm.length;
        },
        async result(whole) {
          events.push(`live result after ${heard} samples heard (whole ${whole.pcm.length})`);
          return { text: 'yes please', confidence: 0.9 };
        },
        cancel() {
          events.push('live cancelled');
        },
      };
    },
  };
}

const classifyReply: ReplyClassifier = (text) => (text.includes('yes') ? { intent: 'affirm', confidence: 0.9 } : { intent: null, confidence: 0 });
const request = { callId: 'cal_ahead', phone: '+919876500003', language: 'en-IN', attempt: 1, script: scripts.en, variables, recording: false };

test('given a real line, when the customer answers, then the answer was heard live and the next prompt was synthesised before it, once', async () => {
  const events: string[] = [];
  const engine = new ConversationEngine({ telephony: audioLine('speech', events), speech: recordingSpeech(events), classifyReply });
  const result = await engine.run(request);
  assert.is(result.disposition, 'interested');
  assert.is(result.turns[1]!.text, 'yes please');
  const confirm = 'Thank you. An advisor will call you tomorrow with the details.';
  assert.ok(events.includes(`prepare en-IN ${scripts.en.name}`), 'the language model is asked for at call start');
  assert.ok(events.indexOf(`prepare en-IN ${scripts.en.name}`) < events.findIndex((event) => event.startsWith('play ')));
  const synthesisedConfirm = events.indexOf(`synthesise ${confirm}`);
  const liveResult = events.findIndex((event) => event.startsWith('live result'));
  assert.ok(synthesisedConfirm >= 0 && synthesisedConfirm < liveResult, `the next prompt was ready before the answer was understood: ${JSON.stringify(events)}`);
  assert.is(events.filter((event) => event === `synthesise ${confirm}`).length, 1, 'not synthesised again when it is said');
  assert.ok(events.includes(`play ${confirm} (${confirm.length} samples)`));
  assert.ok(events.includes('live result after 1600 samples heard (whole 1600)'));
  assert.not.ok(events.includes('recognise after the answer'));
  // The greeting (asked for while ringing and when said: the real port's phrase cache shares it) and its three
  // candidates (confirm, goodbye, callback), nothing more.
  assert.is(events.filter((event) => event.startsWith('synthesise ')).length, 5, JSON.stringify(events));
});

test('given a real line, when nobody answers, then the live recognition is cancelled and the no-input prompt was ready', async () => {
  const events: string[] = [];
  const engine = new ConversationEngine({ telephony: audioLine('silence', events), speech: recordingSpeech(events), classifyReply });
  const result = await engine.run(request);
  assert.is(result.disposition, 'callback');
  assert.is(events.filter((event) => event === 'live cancelled').length, 2, 'one per listen (the question and its re-prompt)');
  const goodbye = 'Thank you for your time. Goodbye.';
  assert.is(events.filter((event) => event === `synthesise ${goodbye}`).length, 1);
});

test('given the sandbox (text, no audio), nothing is synthesised ahead or heard live', async () => {
  const events: string[] = [];
  const line = audioLine('speech', events);
  const sandboxLike: Telephony = { ...line, needsPromptAudio: false };
  const engine = new ConversationEngine({ telephony: sandboxLike, speech: recordingSpeech(events), classifyReply });
  await engine.run(request);
  assert.equal(events.filter((event) => event.startsWith('synthesise') || event.startsWith('live') || event.startsWith('prepare')), [], JSON.stringify(events));
});

test.run();
