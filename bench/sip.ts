/**
 * npm run bench:sip — concurrent SIP calls through the real carrier (SipTelephony: our user agent, RTP, media
 * clock, recording) and the real conversation engine, against sipp as the customers' side, inside a network
 * namespace this script creates (as the SIP test suites do; needs root and unshare).
 *
 * Each call: INVITE → sipp answers at once and streams its pcap (line noise, then the key 1 as RFC 4733 events
 * 7 s after the answer) → we say a DTMF-driven script's greeting (about 5 s, Festival, synthesised once and
 * cached), listen, route the key, say goodbye and hang up; recording on (stereo WAV built per call).
 * Printed: calls placed and completed, calls per second achieved, peak simultaneous calls, post-answer time to
 * the first prompt audio, DTMF-to-next-prompt time, send-side RTP inter-packet timing deviation from 20 ms
 * (p50/p99/max and late packets > 5 ms), CPU per call (share of one core per simultaneous call and CPU ms per call),
 * RSS per call, and answering-machine detection accuracy on the greeting set.
 * Then the English speech phase (bench/sip/speech-latency.ts): calls whose customer answers by voice, recognised
 * by PocketSphinx; printed: end of speech → next prompt p50/p99 and where that time goes.
 * Env: BENCH_SIP_PHASES (default `dtmf,speech`), BENCH_SIP_SPEECH_CALLS (default 12), BENCH_SIP_SPEECH_SPACING_MS
 * (between the speech calls' starts, default 3000: closer, the phase alone needs more CPU than 2 loaded cores give), BENCH_SIP_CALLS (default 100), BENCH_SIP_CPS (calls per second, default 20), BENCH_SIP_RECORDING=0 (recording off),
 * MEDIA_THREAD_REALTIME_PRIORITY and MEDIA_THREAD_NICE (the media thread's scheduling, defaults as the server's: 10
 * and 0; what the thread got is printed).
 */
import { enterNetworkNamespace, startPeer } from '../tests/support/network-namespace.ts';
await enterNetworkNamespace(import.meta.url);

const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { fileURLToPath } = await import('node:url');
const { classifyReply } = await import('../infra/analysis/customer-reply.ts');
const { synthesize } = await import('../infra/speech/synthesize.ts');
const { SipTelephony } = await import('../infra/telephony/sip/sip-telephony.ts');
const { mediaThread } = await import('../infra/telephony/sip/media-thread.ts');
const { classifyGreeting } = await import('../infra/telephony/answering-machine-detector.ts');
const { ConversationEngine } = await import('../processes/calling/conversation-engine.ts');
const { offlineConversationSpeech } = await import('../processes/calling/offline-speech.ts');
const { writeRtpPcap } = await import('../tests/infra/telephony/sip/rtp-pcap.ts');
const { waitForUdpPort } = await import('../tests/infra/telephony/sip/peers.ts');
const { greetingSet } = await import('../tests/infra/telephony/greeting-set.ts');
const { measureSpeechLatency } = await import('./sip/speech-latency.ts');
const { benchCarrierSettings } = await import('./sip/bench-carrier-settings.ts');
type Script = import('../domain/script-types.ts').Script;
type Telephony = import('../infra/telephony/port.ts').Telephony;

const CALLS = Number(process.env.BENCH_SIP_CALLS ?? 100);
const CPS = Number(process.env.BENCH_SIP_CPS ?? 20);
const RECORDING = process.env.BENCH_SIP_RECORDING !== '0';
const PEER = '127.0.0.50';
const KEY_AT_SECONDS = 7;
const PHASES = new Set((process.env.BENCH_SIP_PHASES ?? 'dtmf,speech').split(',').map((phase) => phase.trim()));
const SPEECH_CALLS = Number(process.env.BENCH_SIP_SPEECH_CALLS ?? 12);
const SPEECH_SPACING_MS = Number(process.env.BENCH_SIP_SPEECH_SPACING_MS ?? 3000);

const work = mkdtempSync(join(tmpdir(), 'bench-sip-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

const script: Script = {
  name: 'Renewal (DTMF)',
  single_call_enabled: true,
  steps: [
    {
      id: 'greet',
      say: 'Hello {name}, this is Sahay Finance about your loan renewal. Press one to renew, or two for a call back.',
      listen: {
        timeout_seconds: 10,
        routes: [
          { intent: 'affirm', dtmf: '1', disposition: 'interested', next: 'bye' },
          { intent: 'callback_later', dtmf: '2', disposition: 'callback', next: 'bye' },
        ],
        no_input: { retries: 0, disposition: 'callback', next: 'bye' },
      },
    },
    { id: 'bye', say: 'Thank you, goodbye.', end: true },
  ],
};

if (PHASES.has('dtmf')) await dtmfPhase();
if (PHASES.has('speech')) await speechPhase();
process.exit(0);

async function dtmfPhase(): Promise<void> {
  // The customers: line noise, the key 1 at KEY_AT_SECONDS, quiet until we hang up.
  let seed = 99;
  const noise = Int16Array.from({ length: 8000 * 14 }, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), Math.round(((seed / 0x7fffffff) * 2 - 1) * 20)));
  const pcap = join(work, 'customer.pcap');
  writeRtpPcap(pcap, noise, [{ atSeconds: KEY_AT_SECONDS, digit: '1' }]);
  const scenario = join(work, 'customer.xml');
  writeFileSync(scenario, readFileSync(fileURLToPath(new URL('./sip/customer.xml', import.meta.url)), 'utf8').replaceAll('{{pcap}}', pcap));
  const sipp = startPeer('sipp', ['-sf', scenario, '-i', PEER, '-p', '5060', '-mi', PEER, '-m', String(CALLS), '-nostdin', '-timeout', '300s', '-timeout_error']);
  await waitForUdpPort(PEER, 5060, sipp);

  const carrier = new SipTelephony(benchCarrierSettings({ peer: PEER, localPort: 5070, rtpPorts: { low: 20000, high: 20000 + 2 * CALLS + 100 }, maxCallsPerSecond: CPS }));
  await carrier.start();
  const speech = offlineConversationSpeech();
  // Warm the phrase cache: every call says the same sentences (a campaign's prompts are cached the same way).
  for (const step of script.steps) await speech.synthesize(step.say.replace('{name}', 'Asha'), 'en-IN', 'agent');

  const sessions: Array<{ sentPacketTimes: readonly number[] }> = [];
  const answerTimes: number[] = [];
  let active = 0;
  let peakActive = 0;
  const observed: Telephony = {
    name: carrier.name,
    needsPromptAudio: carrier.needsPromptAudio,
    timeScale: carrier.timeScale,
    async placeCall(request) {
      const placed = await carrier.placeCall(request);
      if (placed.outcome === 'answered') {
        answerTimes.push(performance.now());
        sessions.push(placed.session as unknown as { sentPacketTimes: readonly number[] });
        peakActive = Math.max(peakActive, ++active);
        const hangUp = placed.session.hangUp.bind(placed.session);
        placed.session.hangUp = async () => {
          active--;
          return hangUp();
        };
      }
      return placed;
    },
  };
  const engine = new ConversationEngine({ telephony: observed, speech, classifyReply });

  let peakRss = 0;
  const baseRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await mediaThread.clockStats(true);
  const results = await Promise.all(
    Array.from({ length: CALLS }, (_, index) =>
      engine.run({ callId: `cal_bench_${index}`, phone: `+9198000${String(index).padStart(5, '0')}`, language: 'en-IN', attempt: 1, script, variables: { name: 'Asha' }, recording: RECORDING }),
    ),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const clock = await mediaThread.clockStats();
  await carrier.close();
  const sippExit = await Promise.race([sipp.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 5000))]);
  await sipp.stop();

  const answered = results.filter((result) => result.outcome === 'answered');
  const routed = answered.filter((result) => result.disposition === 'interested');
  const firstPrompt = answered.map((result) => result.turns[0]!.start_seconds * 1000);
  const dtmfToNext = answered.flatMap((result) => {
    const press = result.turns.find((turn) => turn.speaker === 'customer');
    const next = result.turns.find((turn) => turn.step_id === 'bye');
    return press && next ? [(next.start_seconds - press.end_seconds) * 1000] : [];
  });
  const deviations = sessions.flatMap(({ sentPacketTimes }) => sentPacketTimes.slice(1).map((time, index) => Math.abs(time - sentPacketTimes[index]! - 20)));
  const callSeconds = answered.reduce((sum, result) => sum + result.ringSeconds + result.talkSeconds, 0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const set = await greetingSet();
  const amdRight = set.filter((greeting) => classifyGreeting(greeting.pcm).answeredBy === (greeting.truth === 'silence' ? 'unknown' : greeting.truth)).length;

  console.log(`bench:sip — ${CALLS} calls at ${CPS} calls/s to sipp (${PEER}), DTMF-driven script, recording ${RECORDING ? 'on' : 'off'}, 2 cores shared`);
  console.log(`  calls answered ${answered.length}/${CALLS}, routed by the key ${routed.length}; sipp exit ${String(sippExit)}`);
  const setUpSeconds = (Math.max(...answerTimes) - started) / 1000;
  console.log(`  wall ${wallSeconds.toFixed(1)} s; calls set up per second ${(answerTimes.length / Math.max(0.001, setUpSeconds)).toFixed(1)} (INVITEs paced at ${CPS}/s by SIP_MAX_CPS)`);
  console.log(`  peak simultaneous calls ${peakActive}`);
  console.log(`  post-answer time to first prompt audio: p50 ${ms(percentile(firstPrompt, 50))}, p99 ${ms(percentile(firstPrompt, 99))}`);
  console.log(`  DTMF to next prompt: p50 ${ms(percentile(dtmfToNext, 50))}, p99 ${ms(percentile(dtmfToNext, 99))}`);
  console.log(
    `  send-side RTP inter-packet deviation from 20 ms (${deviations.length} intervals): p50 ${ms(percentile(deviations, 50))}, p99 ${ms(percentile(deviations, 99))}, max ${ms(Math.max(...deviations))}; late > 5 ms ${deviations.filter((value) => value > 5).length} (${((100 * deviations.filter((value) => value > 5).length) / Math.max(1, deviations.length)).toFixed(2)} %)`,
  );
  console.log(`  media clock tick lateness (media thread at nice ${clock.nice}, real-time priority ${clock.realtimePriority || 'none'}): p50 ${ms(percentile(clock.lateness, 50))}, p99 ${ms(percentile(clock.lateness, 99))}; tick duration p50 ${ms(percentile(clock.durations, 50))}, p99 ${ms(percentile(clock.durations, 99))}, max ${ms(Math.max(...clock.durations))}`);
  console.log(`  CPU ${cpuSeconds.toFixed(1)} s for ${callSeconds.toFixed(0)} call-seconds: ${((100 * cpuSeconds) / Math.max(1, callSeconds)).toFixed(2)} % of a core per simultaneous call, ${((1000 * cpuSeconds) / Math.max(1, answered.length)).toFixed(0)} ms CPU per call`);
  console.log(`  RSS: base ${(baseRss / 2 ** 20).toFixed(0)} MB, peak ${(peakRss / 2 ** 20).toFixed(0)} MB, ${((peakRss - baseRss) / 2 ** 20 / Math.max(1, peakActive)).toFixed(2)} MB per simultaneous call`);
  console.log(`  answering-machine detection on the greeting set: ${amdRight}/${set.length} right`);
}


async function speechPhase(): Promise<void> {
  const speech = await measureSpeechLatency({ work, calls: SPEECH_CALLS, spacingMs: SPEECH_SPACING_MS, firstHost: 60, localPort: 5080, rtpLow: 24000 });
  const line = (values: number[]) => (values.length === 0 ? 'none (n 0)' : `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))} (n ${values.length})`);
  console.log(`bench:sip speech — ${speech.calls} calls, one started every ${SPEECH_SPACING_MS} ms, the customer answers by voice (Festival), PocketSphinx with the call-domain model`);
  console.log(`  answered ${speech.answered}/${speech.calls}, routed by the spoken answer ${speech.routedRight}; heard: ${[...new Set(speech.recognised)].map((text) => JSON.stringify(text)).join(', ')}`);
  console.log(`  end of English speech to next prompt: ${line(speech.endToPromptMs)}`);
  console.log(`    end of speech → end of utterance decided: ${line(speech.endToDecidedMs)}`);
  console.log(`    decided → next prompt handed to the line (recognition, routing, synthesis): ${line(speech.decidedToPlayMs)}`);
  console.log(`      recognition and synthesis calls ending in that window (a synthesis started ahead but not done counts): recognition ${line(speech.recognitionMs)}; synthesis ${line(speech.synthesisMs)}`);
  console.log(`    handed to the line → first RTP packet: ${line(speech.playToPacketMs)}`);
}
