/**
 * bench:sip's English speech phase: issue 17's "end of the customer's English speech → start of the next prompt"
 * over real SIP calls. sipp peers answer and stream a pcap (quiet line, then a spoken answer synthesised by
 * Festival, then quiet); our real carrier, conversation engine, PocketSphinx (with the call-domain language model
 * as production builds it) and Festival do the rest. Calls start `spacingMs` apart so several overlap.
 *
 * Besides the end-to-end figure it prints where the time goes, measured from outside the code under test (the
 * ports are wrapped, nothing in the product is instrumented): end of speech → end of utterance decided (the
 * listen returned), → the next prompt handed to the line (recognition, routing, synthesis), → its first RTP
 * packet; and the recognition and synthesis calls made in that window.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Script } from '../../domain/script-types.ts';
import { classifyReply } from '../../infra/analysis/customer-reply.ts';
import { synthesize } from '../../infra/speech/synthesize.ts';
import { CallDomainModels } from '../../infra/speech/language-model/call-domain-models.ts';
import { PocketSphinxRecognizer } from '../../infra/speech/pocketsphinx.ts';
import type { Telephony } from '../../infra/telephony/port.ts';
import { SipTelephony } from '../../infra/telephony/sip/sip-telephony.ts';
import { benchCarrierSettings } from './bench-carrier-settings.ts';
import { resample } from '../../processes/calling/call-recording.ts';
import { ConversationEngine } from '../../processes/calling/conversation-engine.ts';
import type { ConversationSpeech } from '../../processes/calling/conversation-ports.ts';
import { offlineConversationSpeech } from '../../processes/calling/offline-speech.ts';
import { startPeer, type Peer } from '../../tests/support/network-namespace.ts';
import { waitForUdpPort } from '../../tests/infra/telephony/sip/peers.ts';
import { writeRtpPcap } from '../../tests/infra/telephony/sip/rtp-pcap.ts';

export const speechScript: Script = {
  name: 'Renewal (spoken)',
  single_call_enabled: true,
  steps: [
    {
      id: 'greet',
      say: 'Hello {name}, would you like to renew your loan?',
      listen: {
        timeout_seconds: 10,
        routes: [
          { intent: 'affirm', dtmf: '1', disposition: 'interested', next: 'confirm' },
          { intent: 'deny', dtmf: '2', disposition: 'not_interested', next: 'goodbye' },
        ],
        no_input: { retries: 0, disposition: 'callback', next: 'goodbye' },
      },
    },
    { id: 'confirm', say: 'Thank you {name}, an advisor will call you tomorrow.', end: true },
    { id: 'goodbye', say: 'Thank you for your time {name}. Goodbye.', end: true },
  ],
};

/** The customers' answers: the words, the route they must take, and a pause inside (seconds; 0: none). */
const ANSWERS = [
  { words: ['yes I am interested'], intent: 'affirm' },
  { words: ['no', 'I am not interested'], pauseSeconds: 0.4, intent: 'deny' },
] as const;
/** The answer starts this long after the answer of the call (the greeting, about 3 s, is over by then). */
const SPEAK_AT_SECONDS = 5;

export interface SpeechLatencyOptions {
  work: string;
  calls: number;
  spacingMs: number;
  /** Peers on 127.0.0.<firstHost> and up, one per kind of answer; our side on 127.0.0.1, SIP port `localPort` and up. */
  firstHost: number;
  localPort: number;
  rtpLow: number;
}

interface CallTimes {
  answerPerf: number;
  listenReturnedPerf: number | null;
  nextPlayPerf: number | null;
  recognitionMs: number[];
  synthesisMs: number[];
}

export interface SpeechLatencyResult {
  calls: number;
  answered: number;
  routedRight: number;
  recognised: string[];
  /** End of speech → first RTP packet of the next prompt, ms, one per routed call. */
  endToPromptMs: number[];
  endToDecidedMs: number[];
  decidedToPlayMs: number[];
  playToPacketMs: number[];
  recognitionMs: number[];
  synthesisMs: number[];
}

const NAMES = ['Asha', 'Ravi', 'Priya', 'Kiran', 'Meena', 'Arjun', 'Divya', 'Suresh', 'Lakshmi', 'Vikram', 'Anita', 'Rahul', 'Deepa', 'Manoj', 'Sunita', 'Ajay'];

/** A different contact per call (and per run: the synthesiser's phrase cache lives as long as the process). */
function contactName(index: number): string {
  return `${NAMES[index % NAMES.length]}${index >= NAMES.length ? ` ${String.fromCharCode(65 + Math.floor(index / NAMES.length) - 1)}` : ''}`;
}

/** The words without the synthesiser's own quiet before and after them, so a pause is as long as ANSWERS says. */
function withoutQuietEnds(pcm: Int16Array): Int16Array {
  const loud = (sample: number) => Math.abs(sample) > 300;
  const first = pcm.findIndex(loud);
  return first < 0 ? new Int16Array(0) : pcm.subarray(first, pcm.findLastIndex(loud) + 1);
}

/** Quiet line (as the DTMF customers), the spoken answer at SPEAK_AT_SECONDS, quiet for 6 s more; 8 kHz. */
async function answerPcm(words: readonly string[], pauseSeconds: number): Promise<Int16Array> {
  const parts: Int16Array[] = [];
  for (const [index, phrase] of words.entries()) {
    if (index > 0) parts.push(new Int16Array(Math.round(pauseSeconds * 8000)));
    const speech = await synthesize(phrase, 'en-IN', { voice: 'agent' });
    parts.push(withoutQuietEnds(resample(speech, 8000)));
  }
  const lead = SPEAK_AT_SECONDS * 8000;
  const total = lead + parts.reduce((sum, part) => sum + part.length, 0) + 6 * 8000;
  let seed = 7;
  const pcm = Int16Array.from({ length: total }, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), Math.round(((seed / 0x7fffffff) * 2 - 1) * 20)));
  let at = lead;
  for (const part of parts) {
    for (let index = 0; index < part.length; index++) pcm[at + index] = Math.max(-32768, Math.min(32767, pcm[at + index]! + part[index]!));
    at += part.length;
  }
  return pcm;
}

export async function measureSpeechLatency(options: SpeechLatencyOptions): Promise<SpeechLatencyResult> {
  const peers: Peer[] = [];
  const carriers: SipTelephony[] = [];
  const times = new Map<string, CallTimes>();
  const currentCall = new AsyncLocalStorage<string>();
  const recognizer = new PocketSphinxRecognizer();
  // Kept between runs (models are keyed by their text): building one costs about 30 s of CPU.
  const models = new CallDomainModels({ cacheDirectory: join(tmpdir(), 'bench-sip-language-models') });
  // As in production after a script's first calls: its language model is built and its prompts are cached.
  await models.modelFor([speechScript]);
  const base = offlineConversationSpeech({ recognizer, callDomainModels: models });
  // Every prompt names the contact, and every call is another contact: no prompt comes from the phrase cache (a
  // campaign's calls share only unpersonalised prompts), so synthesis is in the figure where it would be.
  const timed = <A extends unknown[], R>(kind: 'recognitionMs' | 'synthesisMs', run: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    const call = times.get(currentCall.getStore() ?? '');
    const started = performance.now();
    try {
      return await run(...args);
    } finally {
      // Only work that ends between the end of the utterance and the next prompt counts (it was waited for).
      if (call && call.listenReturnedPerf !== null && call.nextPlayPerf === null) call[kind].push(performance.now() - started);
    }
  };
  const speech: ConversationSpeech = {
    ...base,
    synthesize: timed('synthesisMs', base.synthesize.bind(base)),
    ...(base.recognize ? { recognize: timed('recognitionMs', base.recognize.bind(base)) } : {}),
    // Heard live: what counts is what is left once the answer is over (its result).
    ...(base.hearLive
      ? {
          hearLive: (language: string, context: { script: Script }) => {
            const live = base.hearLive!(language, context);
            return live && { hear: live.hear.bind(live), cancel: live.cancel.bind(live), result: timed('recognitionMs', live.result.bind(live)) };
          },
        }
      : {}),
  };

  const engines = [];
  for (const [index, answer] of ANSWERS.entries()) {
    const address = `127.0.0.${options.firstHost + index}`;
    const pcap = join(options.work, `speech-${index}.pcap`);
    writeRtpPcap(pcap, await answerPcm(answer.words, 'pauseSeconds' in answer ? answer.pauseSeconds : 0));
    const scenario = join(options.work, `speech-${index}.xml`);
    writeFileSync(scenario, readFileSync(fileURLToPath(new URL('./customer.xml', import.meta.url)), 'utf8').replaceAll('{{pcap}}', pcap));
    const callsHere = Math.ceil((options.calls - index) / ANSWERS.length);
    if (callsHere <= 0) continue;
    const sipp = startPeer('sipp', ['-sf', scenario, '-i', address, '-p', '5060', '-mi', address, '-m', String(callsHere), '-nostdin', '-timeout', '300s', '-timeout_error']);
    peers.push(sipp);
    await waitForUdpPort(address, 5060, sipp);
    const carrier = new SipTelephony(
      benchCarrierSettings({ peer: address, localPort: options.localPort + index, rtpPorts: { low: options.rtpLow + index * 400, high: options.rtpLow + index * 400 + 398 }, maxCallsPerSecond: 20 }),
    );
    await carrier.start();
    carriers.push(carrier);
    const observed: Telephony = {
      name: carrier.name,
      needsPromptAudio: carrier.needsPromptAudio,
      timeScale: carrier.timeScale,
      async placeCall(request) {
        const placed = await carrier.placeCall(request);
        if (placed.outcome !== 'answered') return placed;
        const call: CallTimes = { answerPerf: performance.now(), listenReturnedPerf: null, nextPlayPerf: null, recognitionMs: [], synthesisMs: [] };
        times.set(request.callId, call);
        const session = placed.session;
        const listen = session.listen.bind(session);
        const play = session.play.bind(session);
        session.listen = async (listenOptions) => {
          const input = await listen(listenOptions);
          if (input.kind === 'speech') call.listenReturnedPerf = performance.now();
          return input;
        };
        session.play = (prompt) => {
          if (call.listenReturnedPerf !== null && call.nextPlayPerf === null) call.nextPlayPerf = performance.now();
          return play(prompt);
        };
        return placed;
      },
    };
    engines.push({ engine: new ConversationEngine({ telephony: observed, speech, classifyReply }), intent: answer.intent, calls: callsHere });
  }

  const runs = [];
  for (let index = 0; index < options.calls; index++) {
    const { engine, intent } = engines[index % engines.length]!;
    const callId = `cal_speech_${index}`;
    runs.push(
      currentCall.run(callId, () =>
        engine
          .run({ callId, phone: `+9198100${String(index).padStart(5, '0')}`, language: 'en-IN', attempt: 1, script: speechScript, variables: { name: contactName(index) }, recording: true })
          .then((result) => ({ result, intent, callId })),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, options.spacingMs));
  }
  const results = await Promise.all(runs);
  await Promise.all(carriers.map((carrier) => carrier.close()));
  await Promise.all(peers.map((peer) => Promise.race([peer.exited, new Promise((resolve) => setTimeout(resolve, 3000))]).then(() => peer.stop())));
  await models.close();

  const outcome: SpeechLatencyResult = {
    calls: options.calls,
    answered: 0,
    routedRight: 0,
    recognised: [],
    endToPromptMs: [],
    endToDecidedMs: [],
    decidedToPlayMs: [],
    playToPacketMs: [],
    recognitionMs: [],
    synthesisMs: [],
  };
  for (const { result, intent, callId } of results) {
    if (result.outcome !== 'answered') continue;
    outcome.answered++;
    const answer = result.turns.find((turn) => turn.speaker === 'customer');
    const next = result.turns.find((turn) => turn.speaker === 'agent' && answer !== undefined && turn.start_seconds > answer.end_seconds);
    outcome.recognised.push(answer?.text ?? '(no answer)');
    if (answer?.intent === intent) outcome.routedRight++;
    const call = times.get(callId);
    if (!answer || !next || !call || call.listenReturnedPerf === null || call.nextPlayPerf === null || answer.dtmf !== undefined) continue;
    const endPerf = call.answerPerf + answer.end_seconds * 1000;
    const packetPerf = call.answerPerf + next.start_seconds * 1000;
    outcome.endToPromptMs.push((next.start_seconds - answer.end_seconds) * 1000);
    outcome.endToDecidedMs.push(call.listenReturnedPerf - endPerf);
    outcome.decidedToPlayMs.push(call.nextPlayPerf - call.listenReturnedPerf);
    outcome.playToPacketMs.push(packetPerf - call.nextPlayPerf);
    outcome.recognitionMs.push(...call.recognitionMs);
    outcome.synthesisMs.push(...call.synthesisMs);
  }
  return outcome;
}
