import { dtmfEntryDigits, INTER_DIGIT_SECONDS, isDtmfEntryComplete } from '../dtmf-entry.ts';
import type { AudioClip, CallSession, CustomerInput, ListenOptions, Prompt, Span, TransferRequest, TransferResult } from '../port.ts';
import type { AgentLegDialer } from './agent-leg.ts';
import { JITTER_SAMPLES, TRACK_SAMPLE_RATE } from './customer-track.ts';
import { toNarrowband } from './narrowband.ts';
import type { RtpStream } from './rtp-stream.ts';
import { answerReinvite } from './reinvite-answer.ts';
import type { Dialog, SipUserAgent } from './user-agent.ts';
import { frameDecibels, UtteranceDetector } from './utterance-detector.ts';
import { AnsweringMachineDetector, type AmdDecision } from '../answering-machine-detector.ts';

/**
 * An answered SIP call as the conversation engine sees it (the CallSession port). Time is seconds since the
 * 200 OK. The customer's audio is analysed continuously (every media tick, up to the jitter horizon) by the
 * utterance detector, so speech that begins during a prompt is caught: it stops the prompt (barge-in) and is the
 * answer the next `listen` returns. A key pressed during a prompt stops it too; keys pressed when nobody listens
 * wait for the next `listen` (docs/telephony.md, "Listening").
 */
const FRAME = 160;
/** Longest single answer; a customer who talks on is cut here and the rest is the next answer. */
const MAX_UTTERANCE_SECONDS = 15;
/** Speech must last this long during a prompt to stop it (shorter noises do not interrupt the agent). */
const BARGE_IN_SECONDS = 0.3;
const PRE_ROLL_SAMPLES = 0.3 * TRACK_SAMPLE_RATE;
const POST_ROLL_SAMPLES = 0.2 * TRACK_SAMPLE_RATE;
/** Below this a frame is quiet (a beep or a greeting is well above it). */
const QUIET_DB = -45;

interface Utterance {
  start: number;
  end: number | null;
}

export class SipCallSession implements CallSession {
  private readonly detector: UtteranceDetector;
  private analysed = 0;
  private readonly utterances: Utterance[] = [];
  private readonly digits: Array<{ digit: string; atSeconds: number }> = [];
  /** Only utterances that start from here on are answers (the start of the last prompt). */
  private answersFrom = 0;
  private playing = false;
  private ended: number | null = null;
  private wake: (() => void) | null = null;
  private sdpVersion = 1;
  private readonly amd: AnsweringMachineDetector | null;
  /** Where the answer is on the track: detection starts there (early media is not the callee). */
  private readonly amdFrom: number;
  private amdWaiters: Array<(decision: AmdDecision) => void> = [];
  /** A warm transfer's agent leg while it rings: the customer hanging up cancels it. */
  private agentRinging: AbortController | null = null;
  /** Frames of quiet in a row, for waitForQuiet. */
  private quietFrames = 0;
  /** The listen in progress that hears its answer live (ListenOptions.hear): where the audio handed over ends. */
  private hearing: { hear: (chunk: AudioClip) => void; fedUntil: number | null } | null = null;

  constructor(
    private readonly agent: SipUserAgent,
    private readonly dialog: Dialog,
    private readonly stream: RtpStream,
    private readonly local: { address: string; sessionId: number },
    /** Early media before the answer: the stream's timeline starts there (CallSession.mediaLeadSeconds). */
    readonly mediaLeadSeconds = 0,
    answeringMachineDetection = false,
    /** Dials a warm transfer's agent leg (SipTelephony); absent: this call cannot be transferred. */
    private readonly dialAgent?: AgentLegDialer,
    /** The pause that ends an answer (SIP_END_OF_UTTERANCE_MS); default DEFAULT_END_SILENCE_MS. */
    endOfUtteranceMs?: number,
  ) {
    this.detector = new UtteranceDetector(endOfUtteranceMs === undefined ? {} : { endSilenceMs: endOfUtteranceMs });
    if (!dialAgent) this.transfer = undefined;
    this.amd = answeringMachineDetection ? new AnsweringMachineDetector() : null;
    this.amdFrom = Math.round(mediaLeadSeconds * TRACK_SAMPLE_RATE);
    if (!answeringMachineDetection) this.detectAnsweringMachine = undefined;
    stream.onTick = () => this.analyse();
    stream.onDigit = (digit, atSeconds) => this.onDigit(digit, atSeconds);
    agent.attach(dialog, {
      onBye: () => this.onRemoteHangUp(),
      onReinvite: (offer) => this.onReinvite(offer),
      onDtmf: (digit) => this.onDigit(digit, stream.now()),
    });
  }

  get hungUpByCustomer(): boolean {
    return this.ended !== null;
  }

  async play(prompt: Prompt): Promise<Span> {
    if (this.ended !== null) return { startSeconds: this.ended, endSeconds: this.ended };
    if (!prompt.audio) throw new Error('a SIP call needs the prompt audio');
    this.answersFrom = this.stream.now();
    this.playing = true;
    try {
      const played = await this.stream.play(toNarrowband(prompt.audio, TRACK_SAMPLE_RATE));
      return { startSeconds: round(played.startMs / 1000), endSeconds: round(played.endMs / 1000) };
    } finally {
      this.playing = false;
    }
  }

  async listen(options: ListenOptions): Promise<CustomerInput> {
    this.hearing = options.hear ? { hear: options.hear, fedUntil: null } : null;
    try {
      return await this.awaitInput(options);
    } finally {
      this.hearing = null;
    }
  }

  private async awaitInput(options: ListenOptions): Promise<CustomerInput> {
    const listenStart = this.stream.now();
    const deadline = listenStart + options.timeoutSeconds;
    for (;;) {
      if (this.digits.length > 0) return this.collectEntry(options.dtmfRoutes ?? []);
      if (this.ended !== null) return { kind: 'hangup', startSeconds: round(listenStart), endSeconds: this.ended };
      const answer = this.answer();
      const now = this.stream.now();
      // An answer already (partly) heard before this listen began is handed over at once.
      this.feedHearing();
      if (answer && answer.end !== null) {
        this.utterances.splice(0, this.utterances.indexOf(answer) + 1);
        this.answersFrom = answer.end / TRACK_SAMPLE_RATE;
        // The recogniser gets a little of the quiet around the words: decoders adapt to the line on it and
        // clip the first phoneme without it.
        const audio: AudioClip = { pcm: this.stream.track.read(Math.max(0, answer.start - PRE_ROLL_SAMPLES), answer.end + POST_ROLL_SAMPLES), sampleRate: TRACK_SAMPLE_RATE };
        return { kind: 'speech', audio, startSeconds: round(answer.start / TRACK_SAMPLE_RATE), endSeconds: round(answer.end / TRACK_SAMPLE_RATE) };
      }
      if (!answer && now >= deadline) {
        this.answersFrom = now;
        return { kind: 'silence', startSeconds: round(listenStart), endSeconds: round(now) };
      }
      await this.sleep(answer ? 100 : (deadline - now) * 1000);
    }
  }

  /** The answer to the last prompt: the first utterance that started after it (or barged into it). */
  private answer(): Utterance | undefined {
    return this.utterances.find((utterance) => utterance.start / TRACK_SAMPLE_RATE >= this.answersFrom - 0.05);
  }

  /**
   * Hands the live listener the answer's audio analysed since the last call: from the pre-roll before its start
   * (as the clip `listen` returns) up to what the detector has analysed, so while the answer goes on, and up to
   * where its end was decided (the quiet after it, a little more than the clip's post-roll).
   */
  private feedHearing(): void {
    const hearing = this.hearing;
    if (!hearing) return;
    const answer = this.answer();
    if (!answer) return;
    const from = hearing.fedUntil ?? Math.max(0, answer.start - PRE_ROLL_SAMPLES);
    const to = answer.end === null ? this.analysed : Math.min(this.analysed, answer.end + POST_ROLL_SAMPLES);
    if (to <= from) return;
    hearing.fedUntil = to;
    try {
      hearing.hear({ pcm: this.stream.track.read(from, to), sampleRate: TRACK_SAMPLE_RATE });
    } catch {
      // A listener that fails stops hearing live (its recognition falls back to the whole answer); the line goes on.
      this.hearing = null;
    }
  }

  /**
   * A keypad entry from the keys waiting on: more keys are awaited while the entry may still grow into a route
   * (dtmf-entry.ts), each for at most INTER_DIGIT_SECONDS. Keys after a complete entry wait for the next listen.
   */
  private async collectEntry(routes: readonly string[]): Promise<CustomerInput> {
    let collected = '';
    let first = 0;
    let last = 0;
    for (;;) {
      while (this.digits.length > 0) {
        const { digit, atSeconds } = this.digits.shift()!;
        if (collected === '') first = atSeconds;
        collected += digit;
        last = atSeconds;
        if (isDtmfEntryComplete(collected, routes)) return this.entry(collected, first, last);
      }
      if (this.ended !== null) return this.entry(collected, first, last);
      const waitUntil = this.stream.now() + INTER_DIGIT_SECONDS;
      while (this.digits.length === 0 && this.ended === null && this.stream.now() < waitUntil) await this.sleep((waitUntil - this.stream.now()) * 1000);
      if (this.digits.length === 0) return this.entry(collected, first, last);
    }
  }

  private entry(collected: string, first: number, last: number): CustomerInput {
    this.answersFrom = Math.max(this.answersFrom, last);
    return { kind: 'dtmf', digits: dtmfEntryDigits(collected), startSeconds: round(first), endSeconds: round(last) };
  }

  /** Until `ms` pass or something the listener waits for happens (speech, a key, the hang-up). */
  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(10, ms));
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }

  /** Who answered (AnsweringMachineDetector on the audio since the answer); absent when SIP_AMD is off. */
  detectAnsweringMachine?(): Promise<AmdDecision> {
    const decided = this.amd?.decided;
    if (decided) return Promise.resolve(decided);
    if (this.ended !== null) return Promise.resolve({ answeredBy: 'unknown', cue: 'silence', atSeconds: Math.max(0, this.ended - this.mediaLeadSeconds) });
    return new Promise((resolve) => this.amdWaiters.push(resolve));
  }

  /** Until the far end has been quiet for `quietSeconds` (a voicemail's greeting and beep are over), or `maxSeconds`. */
  async waitForQuiet(quietSeconds: number, maxSeconds: number): Promise<void> {
    const until = this.stream.now() + maxSeconds;
    while (this.ended === null && this.stream.now() < until && this.quietFrames * 0.02 < quietSeconds) await this.sleep(100);
  }

  /**
   * Warm transfer (docs/telephony.md): the agent's leg rings while the customer hears silence; once it answers,
   * the agent hears the whisper (the customer still silence), then each leg's received audio is relayed to the
   * other (RtpStream.relayFrom) until one side hangs up. The agent's leg is down when this resolves; the
   * customer's is hung up by the caller (hangUp) as after any call.
   */
  async transfer?(request: TransferRequest): Promise<TransferResult> {
    const dialledSeconds = round(this.stream.now());
    if (this.ended !== null) {
      return { kind: 'not_answered', dialledSeconds, endedSeconds: this.ended, detail: 'the customer hung up before the agent was dialled', customerHungUp: true };
    }
    const ringing = new AbortController();
    this.agentRinging = ringing;
    const dialled = await this.dialAgent!(request.target, request.callerId, ringing.signal).finally(() => (this.agentRinging = null));
    if (dialled.kind === 'failed') {
      return { kind: 'not_answered', dialledSeconds, endedSeconds: round(this.stream.now()), detail: dialled.detail, customerHungUp: this.ended !== null };
    }
    const leg = dialled.leg;
    leg.onHangUp = () => this.wake?.();
    const agentAnsweredSeconds = round(this.stream.now());
    // Where the agent leg's timeline (zero at its answer) sits on this call's.
    const agentOrigin = this.stream.now() - leg.stream.now();
    let whispered = this.ended !== null;
    if (!whispered) {
      void leg.stream.play(toNarrowband(request.whisper, TRACK_SAMPLE_RATE)).then(() => {
        whispered = true;
        this.wake?.();
      });
    }
    while (!whispered && this.ended === null && !leg.hungUp) await this.sleep(1000);
    leg.stream.stopPlayback();
    const bridgedSeconds = round(this.stream.now());
    if (this.ended === null && !leg.hungUp) {
      leg.stream.relayFrom(this.stream);
      this.stream.relayFrom(leg.stream);
      while (this.ended === null && !leg.hungUp) await this.sleep(1000);
      this.stream.relayFrom(null);
    }
    const endedBy = this.ended !== null ? 'customer' : 'agent';
    const from = Math.max(0, Math.round((bridgedSeconds - agentOrigin) * TRACK_SAMPLE_RATE));
    const to = Math.max(from, Math.round(((this.ended ?? this.stream.now()) - agentOrigin) * TRACK_SAMPLE_RATE));
    const agentAudio: AudioClip = { pcm: leg.stream.track.read(from, to), sampleRate: TRACK_SAMPLE_RATE };
    await leg.hangUp();
    return { kind: 'bridged', dialledSeconds, agentAnsweredSeconds, bridgedSeconds, endedBy, agentAudio };
  }

  async hangUp(): Promise<{ endSeconds: number }> {
    if (this.ended === null) {
      this.ended = round(this.stream.now());
      this.stream.close();
      await this.agent.bye(this.dialog);
    } else {
      this.stream.close();
    }
    return { endSeconds: this.ended };
  }

  /** The customer's channel from answer to the end, placed by RTP timestamp. */
  customerAudio(): AudioClip {
    const end = Math.round((this.ended ?? this.stream.now()) * TRACK_SAMPLE_RATE);
    return { pcm: this.stream.track.read(0, end), sampleRate: TRACK_SAMPLE_RATE };
  }

  /** When each of the last RTP packets left (ms, performance.now), for the benchmark's timing figure. */
  get sentPacketTimes(): readonly number[] {
    return this.stream.sendTimes;
  }

  /** Sends keys to the customer's side (RFC 4733 when the peer offered telephone-event, SIP INFO otherwise). */
  async sendDigits(digits: string): Promise<void> {
    if (this.stream.canSendTelephoneEvents) this.stream.sendDigits(digits);
    else for (const digit of digits) await this.agent.info(this.dialog, digit);
  }

  private analyse(): void {
    // Up to the audio that has reached this thread (RtpStream.heardUntil), less the jitter allowance.
    const horizon = Math.max(0, Math.round(this.stream.heardUntil() * TRACK_SAMPLE_RATE) - JITTER_SAMPLES);
    let changed = false;
    while (this.analysed + FRAME <= horizon) {
      const frame = this.stream.track.read(this.analysed, this.analysed + FRAME);
      const event = this.detector.push(frame);
      this.quietFrames = this.detector.inSpeech || frameDecibels(frame) > QUIET_DB ? 0 : this.quietFrames + 1;
      if (this.amd && !this.amd.decided && this.analysed >= this.amdFrom) {
        const decision = this.amd.push(frame);
        if (decision) for (const waiter of this.amdWaiters.splice(0)) waiter(decision);
      }
      this.analysed += FRAME;
      if (event?.kind === 'start') {
        this.utterances.push({ start: event.frame * FRAME, end: null });
        changed = true;
      } else if (event?.kind === 'end') {
        const open = this.utterances.at(-1);
        if (open && open.end === null) open.end = event.frame * FRAME;
        changed = true;
      }
      const open = this.utterances.at(-1);
      if (open && open.end === null) {
        if (this.analysed - open.start >= MAX_UTTERANCE_SECONDS * TRACK_SAMPLE_RATE) {
          open.end = this.analysed;
          this.utterances.push({ start: this.analysed, end: null });
          changed = true;
        }
        if (this.playing && (this.analysed - open.start) / TRACK_SAMPLE_RATE >= BARGE_IN_SECONDS && open.start / TRACK_SAMPLE_RATE >= this.answersFrom) {
          this.stream.stopPlayback();
        }
      }
    }
    if (this.utterances.length > 32) this.utterances.splice(0, this.utterances.length - 32);
    this.feedHearing();
    if (changed) this.wake?.();
  }

  private onDigit(digit: string, atSeconds: number): void {
    this.digits.push({ digit, atSeconds });
    if (this.playing) this.stream.stopPlayback();
    this.wake?.();
  }

  private onRemoteHangUp(): void {
    if (this.ended !== null) return;
    this.ended = round(this.stream.now());
    const heard = Math.max(0, this.ended - this.mediaLeadSeconds);
    for (const waiter of this.amdWaiters.splice(0)) waiter(this.amd?.decided ?? { answeredBy: 'unknown', cue: 'silence', atSeconds: heard });
    this.stream.stopPlayback();
    this.agentRinging?.abort();
    this.wake?.();
  }

  private onReinvite(offer: string | undefined): string | null {
    return answerReinvite(this.stream, this.local, ++this.sdpVersion, offer);
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
