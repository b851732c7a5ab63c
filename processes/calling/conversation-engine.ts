import type { AnsweredBy, CallTurn } from '../../domain/call.ts';
import type { Disposition } from '../../domain/shared/disposition.ts';
import { renderTemplate } from '../../domain/script-template.ts';
import type { Script, ScriptIntent, ScriptNoInput, ScriptRoute, ScriptStep } from '../../domain/script-types.ts';
import type { AudioClip, CallSession, CustomerInput, Span, Telephony, TransferTarget } from '../../infra/telephony/port.ts';
import { CallRecordingBuilder } from './call-recording.ts';
import type { ConversationSpeech, ExtraKeywords, LiveRecognition, ReplyClassifier } from './conversation-ports.ts';
import { escalationSummary, type ConversationResult } from './conversation-result.ts';
import { PromptsAhead, stepsAfter, DEFAULT_PROMPTS_AHEAD_LIMITS } from './prompts-ahead.ts';
import { TRANSFER_FALLBACK_STEP_ID, transferFallbackText, WHISPER_LANGUAGE, whisperText } from './transfer-prompts.ts';

/**
 * Runs a script against a live call, through ports only (telephony, speech, reply classifier): it knows no
 * carrier. Each step says its text (the template filled with the contact's or the single call's variables),
 * listens when the step listens, routes the reply (DTMF by `dtmf`, speech by the classified intent), re-prompts
 * on silence or an unrecognised reply up to `no_input.retries` times, then takes the `no_input` route.
 * The result (turns, disposition, escalation, timings, recording) becomes the dialer's commands.
 */
export interface ConversationRequest {
  callId: string;
  phone: string;
  language: string;
  /** 1-based attempt of the contact (1 for single calls). */
  attempt: number;
  script: Script;
  /** Template values: the contact's variables plus `name` and `phone`, or the single call's metadata. */
  variables: Readonly<Record<string, unknown>>;
  recording: boolean;
  /** E.164 caller id of this call (the single call's or its campaign's); absent: the carrier's default. */
  callerId?: string;
  /**
   * When answering-machine detection finds a machine: `hang_up` (default) ends the call at once; `leave_message`
   * waits for the greeting and its beep to finish, then says the script's `voicemail` step and ends.
   */
  voicemail?: VoicemailAction;
  /**
   * Who takes an escalated call, asked once its script has ended, when the carrier can transfer (SIP): the call
   * runner's choice (the agent who placed the call, else the next available one) and how to reach them. Absent,
   * or null: no transfer; the call ends `escalated` as the script leaves it.
   */
  transferAgent?(): Promise<TransferAgent | null>;
}

export interface TransferAgent {
  agentId: string;
  target: TransferTarget;
}

export type VoicemailAction = 'hang_up' | 'leave_message';
/** The script step said to a voicemail with `voicemail: leave_message`. */
export const VOICEMAIL_STEP_ID = 'voicemail';
/** After a machine is detected, the greeting and beep are over once the line has been quiet this long. */
const VOICEMAIL_QUIET_SECONDS = 1;
const VOICEMAIL_MAX_WAIT_SECONDS = 20;

export interface ConversationEngineDependencies {
  telephony: Telephony;
  speech: ConversationSpeech;
  classifyReply: ReplyClassifier;
  /** Guard against scripts that loop forever: the call ends after this many spoken steps. */
  maxSpokenSteps?: number;
}

/** A call that reaches the end of its script without any route or step setting a disposition. */
export const FALLBACK_DISPOSITION: Disposition = 'not_interested';
const DEFAULT_MAX_SPOKEN_STEPS = 50;

export class ConversationEngine {
  constructor(private readonly dependencies: ConversationEngineDependencies) {}

  async run(request: ConversationRequest): Promise<ConversationResult> {
    const { telephony, speech } = this.dependencies;
    const first = request.script.steps[0];
    if (telephony.needsPromptAudio && first) {
      // A real line: synthesise the greeting while the phone rings (the phrase cache shares the in-flight
      // synthesis), so the customer does not hear dead air after answering.
      speech.synthesize(renderTemplate(first.say, request.variables), request.language, 'agent').catch(() => undefined);
      // And whatever recognising its answers needs (a call-domain language model) starts getting ready now.
      speech.prepare?.(request.language, { script: request.script });
    }
    const placed = await telephony
      .placeCall({
        callId: request.callId,
        to: request.phone,
        language: request.language,
        attempt: request.attempt,
        wantCustomerAudio: request.recording,
        ...(request.callerId ? { callerId: request.callerId } : {}),
      })
      .catch((error: unknown) => ({ outcome: 'carrier_error' as const, ringSeconds: 0, detail: error instanceof Error ? error.message : String(error) }));
    if (placed.outcome !== 'answered') {
      const failed = placed.outcome === 'invalid_number' || placed.outcome === 'carrier_error';
      return {
        callId: request.callId,
        outcome: placed.outcome,
        answered: false,
        ringSeconds: placed.ringSeconds,
        talkSeconds: 0,
        durationSeconds: 0,
        turns: [],
        disposition: 'not_reachable',
        escalation: null,
        transfer: null,
        failure: failed ? { reason: placed.outcome as 'invalid_number' | 'carrier_error', detail: placed.detail ?? placed.outcome } : null,
        customerHungUp: false,
        recording: null,
        answeredBy: null,
      };
    }
    const conversation = new Conversation(request, placed.session, this.dependencies);
    try {
      await conversation.run();
      await conversation.transferIfEscalated();
    } catch (error) {
      // Our side failed mid-call (speech, recogniser): free the line, then let the dialer record the failure.
      await placed.session.hangUp().catch(() => undefined);
      throw error;
    }
    const { endSeconds } = await placed.session.hangUp();
    return conversation.result(placed.ringSeconds, endSeconds, placed.session.customerAudio?.(), placed.session.mediaLeadSeconds ?? 0);
  }
}

type RouteDecision =
  | { kind: 'route'; route: ScriptRoute; atSeconds: number }
  | { kind: 'no_input' }
  | { kind: 'hangup' };

/** One answered call's conversation: the state that would otherwise be threaded through every function. */
class Conversation {
  private readonly turns: CallTurn[] = [];
  private disposition: Disposition | null = null;
  private escalation: ConversationResult['escalation'] = null;
  private customerHungUp = false;
  private answeredBy: AnsweredBy | null = null;
  private transfer: ConversationResult['transfer'] = null;
  private readonly recording: CallRecordingBuilder | null;
  /** A real line: the prompts a listening step may lead to are synthesised while the customer answers. */
  private readonly ahead: PromptsAhead | null;

  constructor(
    private readonly request: ConversationRequest,
    private readonly session: CallSession,
    private readonly dependencies: ConversationEngineDependencies,
  ) {
    this.recording = request.recording ? new CallRecordingBuilder() : null;
    const { speech, telephony } = dependencies;
    this.ahead = telephony.needsPromptAudio ? new PromptsAhead((text) => speech.synthesize(text, request.language, 'agent')) : null;
  }

  async run(): Promise<void> {
    const steps = stepsById(this.request.script);
    if (this.session.detectAnsweringMachine) {
      // Before a word is said: a debt or an offer is never spoken to a voicemail.
      this.answeredBy = (await this.session.detectAnsweringMachine()).answeredBy;
      if (this.answeredBy === 'machine') return this.answerMachine(steps.get(VOICEMAIL_STEP_ID));
    }
    const maxSpoken = this.dependencies.maxSpokenSteps ?? DEFAULT_MAX_SPOKEN_STEPS;
    let step: ScriptStep | undefined = this.request.script.steps[0];
    for (let spoken = 0; step !== undefined && spoken < maxSpoken; spoken++) {
      if (step.disposition !== undefined) this.setDisposition(step.disposition);
      const text = renderTemplate(step.say, this.request.variables);
      await this.say(step, text, this.nextPromptsOf(step, steps));
      let next: string | undefined = step.end ? undefined : step.next;
      if (step.listen) {
        const decision = await this.listenAndRoute(step, text);
        if (decision.kind === 'hangup') return;
        if (decision.kind === 'no_input') {
          const noInput: ScriptNoInput = step.listen.no_input;
          if (noInput.disposition !== undefined) this.setDisposition(noInput.disposition);
          next = noInput.next ?? next;
        } else {
          const { route } = decision;
          if (route.disposition !== undefined) this.setDisposition(route.disposition);
          if (route.escalate && this.escalation === null) {
            this.escalation = { reason: 'customer_requested_agent', atSeconds: decision.atSeconds, summary: escalationSummary(this.turns) };
            this.disposition = 'escalated';
          }
          // A route's `next` is followed even from an `end` step: the route knows the answer, the step did not.
          next = route.next ?? next;
        }
      }
      step = next === undefined ? undefined : steps.get(next);
    }
  }

  /**
   * Warm transfer, after the script ended on an escalation (its closing step says "connecting you"): the agent's
   * leg is dialled, hears the whispered summary and is bridged to the customer until either hangs up; their voice
   * goes on the recording's agent channel from the bridge on. An agent who does not answer: the customer hears
   * the fallback and the call ends `callback`. The human conversation is in the recording, not in the turns.
   */
  async transferIfEscalated(): Promise<void> {
    if (this.escalation === null || this.customerHungUp || !this.session.transfer || !this.request.transferAgent) return;
    const agent = await this.request.transferAgent();
    if (!agent) return;
    const whisper = await this.dependencies.speech.synthesize(whisperText(this.escalation.summary, this.request.variables.name), WHISPER_LANGUAGE, 'agent');
    const outcome = await this.session.transfer({ target: agent.target, whisper, ...(this.request.callerId ? { callerId: this.request.callerId } : {}) });
    if (outcome.kind === 'bridged') {
      this.transfer = { agentId: agent.agentId, dialledAtSeconds: outcome.dialledSeconds, agentAnsweredAtSeconds: outcome.agentAnsweredSeconds };
      if (this.recording && outcome.agentAudio.pcm.length > 0) this.recording.add('agent', outcome.bridgedSeconds, outcome.agentAudio);
      if (outcome.endedBy === 'customer') this.customerHungUp = true;
      return;
    }
    this.transfer = { agentId: agent.agentId, dialledAtSeconds: outcome.dialledSeconds, agentAnsweredAtSeconds: null };
    // The hand-over did not happen: the customer is told they will be called back, and that is the outcome.
    this.disposition = 'callback';
    if (outcome.customerHungUp) {
      this.customerHungUp = true;
      return;
    }
    const text = transferFallbackText(this.request.language);
    await this.say({ id: TRANSFER_FALLBACK_STEP_ID, say: text, end: true }, text);
  }

  /** `customerAudio`: the line's whole customer channel, when the carrier has it (replaces the answers' clips). */
  /**
   * `leadSeconds`: early media before the answer; the timeline (turns, the recording) starts there, while talk
   * time and the escalation's moment count from the answer.
   */
  result(ringSeconds: number, endSeconds: number, customerAudio?: AudioClip, leadSeconds = 0): ConversationResult {
    if (customerAudio && this.recording) this.recording.add('customer', 0, customerAudio);
    const talkSeconds = Math.max(0, endSeconds - leadSeconds);
    const escalation = this.escalation && leadSeconds > 0 ? { ...this.escalation, atSeconds: Math.max(0, this.escalation.atSeconds - leadSeconds) } : this.escalation;
    const sinceAnswer = (seconds: number) => Math.max(0, seconds - leadSeconds);
    const transfer = this.transfer && {
      agentId: this.transfer.agentId,
      dialledAtSeconds: sinceAnswer(this.transfer.dialledAtSeconds),
      agentAnsweredAtSeconds: this.transfer.agentAnsweredAtSeconds === null ? null : sinceAnswer(this.transfer.agentAnsweredAtSeconds),
    };
    return {
      callId: this.request.callId,
      outcome: 'answered',
      answered: true,
      ringSeconds,
      talkSeconds,
      durationSeconds: Math.round(talkSeconds),
      turns: this.turns,
      disposition: this.disposition ?? FALLBACK_DISPOSITION,
      escalation,
      transfer,
      failure: null,
      customerHungUp: this.customerHungUp,
      recording: this.recording?.finish(endSeconds) ?? null,
      answeredBy: this.answeredBy,
    };
  }

  /** A machine answered: nobody was reached; leave the script's voicemail message when asked to, then end. */
  private async answerMachine(message: ScriptStep | undefined): Promise<void> {
    this.disposition = 'not_reachable';
    if (this.request.voicemail !== 'leave_message' || !message) return;
    await this.session.waitForQuiet?.(VOICEMAIL_QUIET_SECONDS, VOICEMAIL_MAX_WAIT_SECONDS);
    await this.say(message, renderTemplate(message.say, this.request.variables));
  }

  /** Once escalated, the call stays `escalated`: the hand-over is what happened, whatever the closing step says. */
  private setDisposition(disposition: Disposition): void {
    if (this.escalation === null) this.disposition = disposition;
  }

  /** The texts of the prompts `step`'s answer may lead to (none when the step does not listen or nothing is prepared ahead). */
  private nextPromptsOf(step: ScriptStep, steps: ReadonlyMap<string, ScriptStep>): string[] {
    if (!this.ahead || !step.listen) return [];
    return stepsAfter(step, steps, DEFAULT_PROMPTS_AHEAD_LIMITS.maxPrompts).map((next) => renderTemplate(next.say, this.request.variables));
  }

  /** `nextPrompts`: synthesised ahead once this prompt's own audio is ready (it comes first). */
  private async say(step: ScriptStep, text: string, nextPrompts: readonly string[] = []): Promise<void> {
    const { speech, telephony } = this.dependencies;
    const language = this.request.language;
    const synthesize = () => speech.synthesize(text, language, 'agent');
    // Synthesis is skipped when nothing needs the audio: the sandbox times text, and an unrecorded call keeps
    // no copy (this is what lets the sandbox run hundreds of calls a second).
    const audio = this.recording || telephony.needsPromptAudio ? await (this.ahead?.take(text)?.catch(synthesize) ?? synthesize()) : undefined;
    if (nextPrompts.length > 0) this.ahead?.prepare(nextPrompts);
    const span = await this.session.play({ text, language, audio });
    this.turns.push({ speaker: 'agent', text, start_seconds: span.startSeconds, end_seconds: span.endSeconds, step_id: step.id });
    // A prompt cut short by the customer (barge-in) is recorded as far as it was played.
    if (audio && this.recording) this.recording.add('agent', span.startSeconds, playedPart(audio, span));
  }

  private async listenAndRoute(step: ScriptStep, promptText: string): Promise<RouteDecision> {
    const listen = step.listen!;
    const { speech, telephony } = this.dependencies;
    for (let misses = 0; ; ) {
      // On a real line the answer is decoded while it is spoken; the sandbox gives text and needs no decoder.
      const live = telephony.needsPromptAudio ? speech.hearLive?.(this.request.language, { script: this.request.script }) : undefined;
      const input = await this.session.listen({
        timeoutSeconds: listen.timeout_seconds,
        language: this.request.language,
        dtmfRoutes: dtmfRoutesOf(step),
        ...(live ? { hear: (chunk: AudioClip) => live.hear(chunk) } : {}),
      }).catch((error: unknown) => {
        live?.cancel();
        throw error;
      });
      if (input.kind !== 'speech') live?.cancel();
      if (input.kind === 'hangup') {
        this.customerHungUp = true;
        return { kind: 'hangup' };
      }
      const route = input.kind === 'silence' ? undefined : await this.understand(step, input, live);
      if (route) return { kind: 'route', route, atSeconds: input.endSeconds };
      if (++misses > listen.no_input.retries) return { kind: 'no_input' };
      await this.say(step, promptText);
    }
  }

  /** Records the customer's turn and finds the route it selects (undefined: not understood). */
  private async understand(step: ScriptStep, input: Exclude<CustomerInput, { kind: 'silence' | 'hangup' }>, live?: LiveRecognition): Promise<ScriptRoute | undefined> {
    const routes = step.listen!.routes;
    const turn: CallTurn = { speaker: 'customer', text: '', start_seconds: input.startSeconds, end_seconds: input.endSeconds, step_id: step.id };
    this.turns.push(turn);
    if (input.kind === 'dtmf') {
      live?.cancel();
      turn.text = `[pressed ${input.digits}]`;
      turn.dtmf = input.digits;
      const route = routes.find((candidate) => candidate.dtmf === input.digits);
      turn.intent = route?.intent ?? null;
      return route;
    }
    if (input.audio && this.recording && !this.session.customerAudio) this.recording.add('customer', input.startSeconds, input.audio);
    let text = input.text;
    // Words the carrier knew (the sandbox's simulated customer) are exact; recognised ones are as sure as the recogniser.
    let confidence = text === undefined ? 0 : 1;
    if (text === undefined && input.audio && (live || this.dependencies.speech.recognize)) {
      const recognised = live
        ? await live.result(input.audio)
        : await this.dependencies.speech.recognize!(input.audio, this.request.language, { script: this.request.script });
      text = recognised.text;
      confidence = recognised.confidence;
    } else {
      live?.cancel();
    }
    turn.text = text ?? '';
    turn.confidence = Math.round(confidence * 100) / 100;
    if (turn.text.trim() === '') {
      turn.intent = null;
      return undefined;
    }
    const { intent } = this.dependencies.classifyReply(turn.text, this.request.language, extraKeywordsOf(step));
    const route = intent === null ? undefined : routes.find((candidate) => candidate.intent === intent);
    turn.intent = route ? intent : null;
    return route;
  }
}

function playedPart(audio: AudioClip, span: Span): AudioClip {
  const samples = Math.round((span.endSeconds - span.startSeconds) * audio.sampleRate);
  // Spans are rounded to the millisecond: only a cut longer than that is a barge-in.
  return samples >= audio.pcm.length - audio.sampleRate * 0.005 ? audio : { pcm: audio.pcm.subarray(0, Math.max(0, samples)), sampleRate: audio.sampleRate };
}

// Scripts are immutable values shared by every call of a campaign: index them once.
const stepIndexes = new WeakMap<Script, Map<string, ScriptStep>>();
const keywordIndexes = new WeakMap<ScriptStep, ExtraKeywords | undefined>();

function stepsById(script: Script): Map<string, ScriptStep> {
  let index = stepIndexes.get(script);
  if (!index) {
    index = new Map(script.steps.map((step) => [step.id, step]));
    stepIndexes.set(script, index);
  }
  return index;
}

const dtmfIndexes = new WeakMap<ScriptStep, string[]>();

function dtmfRoutesOf(step: ScriptStep): string[] {
  let keys = dtmfIndexes.get(step);
  if (!keys) {
    keys = (step.listen?.routes ?? []).flatMap((route) => (route.dtmf === undefined ? [] : [route.dtmf]));
    dtmfIndexes.set(step, keys);
  }
  return keys;
}

function extraKeywordsOf(step: ScriptStep): ExtraKeywords | undefined {
  if (keywordIndexes.has(step)) return keywordIndexes.get(step);
  let extras: Partial<Record<ScriptIntent, string[]>> | undefined;
  for (const route of step.listen?.routes ?? []) {
    if (!route.keywords || route.keywords.length === 0) continue;
    extras ??= {};
    (extras[route.intent] ??= []).push(...route.keywords);
  }
  keywordIndexes.set(step, extras);
  return extras;
}
