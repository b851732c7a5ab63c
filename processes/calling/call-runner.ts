import type { Database } from 'better-sqlite3';
import { wasRefused, type Commands } from '../../commands/handler.ts';
import { callDecider, callIdOf, callStream, type CallEnded, type CallFailed, type CallPlaced, type CallPlacement, type CallState, type FailCall, type RecordCallResult } from '../../domain/call.ts';
import { timerDecider, timerStream, type TimerEvent } from '../../domain/timer.ts';
import { isSuppressed, suppressionDecider, suppressionStream } from '../../domain/suppression.ts';
import type { AttemptOutcome } from '../../domain/campaign.ts';
import type { BlobStore } from '../../infra/blobs/port.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import { ConcurrencyLimit } from '../../infra/speech/concurrency-limit.ts';
import { callsInProgress } from '../../projections/dialer.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import type { CallSettlement } from './call-settlement.ts';
import { planCallResult } from './call-timeline.ts';
import { assignEscalation } from './escalation-assignment.ts';
import { findAgent, nextAvailableAgent } from '../../projections/agents.ts';
import type { ConversationEngine } from './conversation-engine.ts';
import { attemptOutcomeOf } from './conversation-result.ts';
import type { DialingSlots } from './dialing-slots.ts';
import type { ScriptVersions } from './script-versions.ts';

const ACTOR = 'call-runner';
/** Calls this process runs at once, all workspaces together (each workspace is bounded by its own limit first). */
export const MAX_CALLS_IN_FLIGHT = 500;
export const RECORDING_CONTENT_TYPE = 'audio/wav';

export function recordingBlobKey(callId: string): string {
  return `recordings/${callId}.wav`;
}

/**
 * Runs every placed call (campaign attempts and single calls): reacts to `CallPlaced`, claims the call with
 * `CallDialingStarted`, runs the conversation engine with the script version pinned on the call, stores the
 * recording, and appends the result (answer, turns, escalation, end and recording) in one command, then settles
 * the follow-ups (campaign contact outcome, do-not-call list, dialing slot).
 *
 * The event handler returns once the call is claimed and running, so up to MAX_CALLS_IN_FLIGHT calls overlap
 * while the process runner moves on. Restart rules (docs/calling.md, "Crash recovery"):
 * - a CallPlaced not yet claimed is dialed (it is replayed, or found by recovery): nobody has called yet;
 * - a claimed call without an end may have rung already: it is failed as `interrupted`, never dialed again;
 * - an ended call whose follow-ups were cut short is settled again (every follow-up is idempotent).
 */
export interface CallRunnerPorts extends ReadModelsCatchUpPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  blobs: BlobStore;
}

/** Refusals a call runner expects: the call already claimed or ended (a replay, or recovery found it first). */
const CALL_MOVED_ON = ['already_exists', 'invalid_state'];

/** The durable timer that records a held ending when the clock reaches it. */
export const CALL_END_TIMER_KIND = 'call-end';
const callEndTimerId = (callId: string) => `call-end-${callId}`;

type CallRunnerEvent = CallPlaced | CallEnded | CallFailed | Extract<TimerEvent, { type: 'TimerFired' }>;

/** The queue of calls to carry, shared by a cluster's nodes (docs/operations.md, "Work queue"). */
export const CALLS_QUEUE = 'calls';

/** Where placed calls are carried: here, or by whichever node claims them from the calls queue. */
export type CallCarriers = { kind: 'this-process' } | { kind: 'work-queue'; enqueue(callId: string): Promise<void> };

export class CallRunner implements ProcessManager<CallRunnerEvent> {
  readonly name = 'calling-call-runner';
  readonly eventTypes: ReadonlyArray<CallRunnerEvent['type']>;
  private readonly limit: ConcurrencyLimit;
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly ports: CallRunnerPorts,
    private readonly dependencies: {
      engine: ConversationEngine;
      scripts: ScriptVersions;
      slots: DialingSlots;
      settlement: CallSettlement;
      /** Clock seconds per second of a call (Telephony.timeScale): the sandbox's calls end ahead of the clock. */
      timeScale: number;
      maxCallsInFlight?: number;
      /**
       * Default `this-process`: a lone node carries every placed call itself. With `work-queue` (a cluster's leader)
       * a placed call is enqueued and any node carries it (`carry`); this runner keeps the dialing slots (held from
       * the placement to the end it sees) and records held endings when their timers fire.
       */
      carriers?: CallCarriers;
    },
  ) {
    this.limit = new ConcurrencyLimit(dependencies.maxCallsInFlight ?? MAX_CALLS_IN_FLIGHT);
    this.eventTypes = this.carriers.kind === 'work-queue' ? ['CallPlaced', 'CallEnded', 'CallFailed', 'TimerFired'] : ['CallPlaced', 'TimerFired'];
  }

  private get carriers(): CallCarriers {
    return this.dependencies.carriers ?? { kind: 'this-process' };
  }

  async start({ checkpoint }: { checkpoint: number }): Promise<void> {
    await readModelsCaughtUp(this.ports);
    for (const row of callsInProgress(this.ports.readDb)) {
      // The runner's own loop replays what lies after its checkpoint.
      if (row.position > checkpoint) continue;
      const { state } = await this.ports.commands.load(callDecider, callStream(row.call_id));
      if (!state.placed) continue;
      if (this.carriers.kind === 'work-queue') {
        // Carried by whichever node claimed it (or will, once a dead node's claim expires): never failed from here.
        // Its slot stays held until its end is seen; a held ending gets its timer.
        if (state.status !== 'in_progress') continue;
        this.dependencies.slots.hold(state.placed.workspace_id, row.call_id);
        if (state.held !== null) await this.scheduleEnd(state.placed, state.held.due_at, null);
        else await this.carriers.enqueue(row.call_id);
        continue;
      }
      if (state.dialing_started_at === null && state.status === 'in_progress') {
        // Never claimed although the runner moved past it (its handler gave up): nobody has dialed it yet.
        await this.runPlaced(state.placed, null);
      } else if (state.held !== null && state.status === 'in_progress') {
        // Its ending is known and waits for the clock: make sure the timer that records it exists.
        this.dependencies.slots.hold(state.placed.workspace_id, row.call_id);
        await this.scheduleEnd(state.placed, state.held.due_at, null);
      } else {
        await this.finishFoundCall(row.call_id, null);
      }
    }
  }

  async stop(): Promise<void> {
    // Calls in flight finish and record their results before the store closes (sandbox calls take milliseconds).
    await Promise.allSettled([...this.running.values()]);
  }

  async handle(event: Recorded<CallRunnerEvent>): Promise<void> {
    const carriers = this.carriers;
    if (event.type === 'CallPlaced') {
      if (carriers.kind === 'this-process') return this.runPlaced(event.data, event.id);
      this.dependencies.slots.hold(event.data.workspace_id, event.data.call_id);
      return carriers.enqueue(event.data.call_id);
    }
    if (event.type === 'CallEnded' || event.type === 'CallFailed') {
      // Carried elsewhere: the node that carried it settles the campaign with the carrier's exact outcome, but it may
      // die between recording the end and settling it, and nothing would settle it then (its claim is acked or the
      // call is ended). The leader settles every end it sees, through its own checkpoint; settling is idempotent, so
      // whichever comes second changes nothing. It also frees this leader's dialing slot.
      if (carriers.kind === 'work-queue') await this.dependencies.settlement.settle(callIdOf(event.stream), { causationId: event.id });
      return;
    }
    if (event.data.kind !== CALL_END_TIMER_KIND) return;
    const callId = event.data.payload.call_id;
    if (typeof callId !== 'string') throw new Error('a call-end timer without its call');
    await this.recordHeld(callId, event.id);
  }

  /**
   * Carries one placed call to its end, for the node that claimed it from the calls queue: dials it unless its
   * dialing already began (the claim `CallDialingStarted` on the call's own stream, appended with its expected
   * revision before the carrier is asked to dial), so a call whose queue claim expired after the dial began is
   * never dialed again: the next claimant fails it as `interrupted` and settles it. Resolves once the call's result
   * (or held ending) is recorded.
   */
  async carry(callId: string): Promise<void> {
    const { state } = await this.ports.commands.load(callDecider, callStream(callId));
    if (!state.placed) throw new Error(`call ${callId} is queued but was never placed`);
    if (state.status === 'in_progress' && state.dialing_started_at === null && state.held === null) {
      await this.runPlaced(state.placed, null);
      await this.running.get(callId);
      return;
    }
    await this.finishFoundCall(callId, null);
  }

  /** Resolves once the call is claimed and running (or found already claimed or ended and dealt with). */
  private runPlaced(placed: CallPlacement, causationId: string | null): Promise<void> {
    this.dependencies.slots.hold(placed.workspace_id, placed.call_id);
    return new Promise<void>((resolve, reject) => {
      void this.limit.run(async () => {
        let dialingStartedAt: Date | null;
        try {
          dialingStartedAt = await this.claim(placed, causationId);
        } catch (error) {
          reject(error);
          return;
        }
        resolve();
        if (dialingStartedAt === null) return;
        const call = this.converse(placed, causationId, dialingStartedAt).finally(() => this.running.delete(placed.call_id));
        this.running.set(placed.call_id, call);
        await call;
      });
    });
  }

  /** Claims the call before dialing it: when dialing began, or null when it is not ours to dial. */
  private async claim(placed: CallPlacement, causationId: string | null): Promise<Date | null> {
    if (this.running.has(placed.call_id)) return null;
    const at = this.ports.clock.now();
    // The do-not-call list as it is now, the last moment before dialing: a number suppressed since the call was
    // placed ends the call undialed (CallFailed number_suppressed), and the contact becomes final dnd.
    const { state: suppressions } = await this.ports.commands.load(suppressionDecider, suppressionStream(placed.workspace_id));
    const claim = await this.ports.commands.handle(
      callDecider,
      callStream(placed.call_id),
      { type: 'RecordCallDialingStarted', facts: { suppressed: isSuppressed(suppressions, placed.contact.phone) }, data: { at: at.toISOString() } },
      this.context(placed, causationId),
      { tolerate: CALL_MOVED_ON },
    );
    if (!wasRefused(claim) && claim.events[0]?.type === 'CallDialingStarted') return at;
    await this.finishFoundCall(placed.call_id, causationId);
    return null;
  }

  /** A call this process is not running: claimed by an earlier life of the process, or already ended. */
  private async finishFoundCall(callId: string, causationId: string | null): Promise<void> {
    if (this.running.has(callId)) return;
    const { state } = await this.ports.commands.load(callDecider, callStream(callId));
    if (!state.placed) return;
    if (state.status === 'in_progress' && state.held !== null) {
      // Not interrupted: its ending is known and recorded when due.
      await this.scheduleEnd(state.placed, state.held.due_at, causationId);
      return;
    }
    if (state.status === 'in_progress') {
      const failure: FailCall = {
        type: 'FailCall',
        data: { reason: 'interrupted', detail: 'the service restarted during the call; it is not dialed again', ended_at: this.now() },
      };
      await this.ports.commands.handle(callDecider, callStream(callId), failure, this.context(state.placed, causationId), { tolerate: CALL_MOVED_ON });
    }
    await this.dependencies.settlement.settle(callId, { causationId });
  }

  private async converse(placed: CallPlacement, causationId: string | null, dialingStartedAt: Date): Promise<void> {
    const { engine, scripts, settlement } = this.dependencies;
    let endsAt = this.ports.clock.now();
    let command: RecordCallResult | FailCall;
    let outcome: AttemptOutcome;
    // The escalation's agent, chosen once: during the call when the carrier transfers (SIP), else after it.
    let chosenAgent: { id: string | undefined } | null = null;
    const chooseAgent = () => (chosenAgent ??= { id: placed.agent_id ? undefined : nextAvailableAgent(this.ports.readDb, placed.workspace_id, placed.language) });
    try {
      const script = await scripts.get(placed.script_id, placed.script_version);
      const result = await engine.run({
        callId: placed.call_id,
        phone: placed.contact.phone,
        language: placed.language,
        attempt: placed.attempt ?? 1,
        script,
        variables: placed.variables,
        recording: placed.recording_enabled,
        ...(placed.caller_id ? { callerId: placed.caller_id } : {}),
        ...(placed.voicemail ? { voicemail: placed.voicemail } : {}),
        transferAgent: async () => {
          const agentId = placed.agent_id ?? chooseAgent().id;
          const agent = agentId === undefined ? undefined : findAgent(this.ports.readDb, placed.workspace_id, agentId);
          return agent ? { agentId: agent.id, target: { sipUri: agent.sip_uri, phone: agent.phone } } : null;
        },
      });
      const planned = planCallResult(result, dialingStartedAt, this.dependencies.timeScale);
      const escalated = planned.command.type === 'RecordCallResult' && planned.command.data.escalation !== null;
      // Read-model facts, looked up only for a hand-over: two escalations at the same instant may pick the same agent.
      const available = escalated && !placed.agent_id ? chooseAgent().id : undefined;
      command = assignEscalation(planned.command, placed.agent_id, available);
      endsAt = planned.endsAt;
      if (result.recording && command.type === 'RecordCallResult') {
        const blobKey = recordingBlobKey(placed.call_id);
        // The blob first: once the event says there is a recording, it must be there to download.
        await this.ports.blobs.put(blobKey, result.recording.wav);
        command.data.recording = {
          blob_key: blobKey,
          duration_seconds: Math.round(result.recording.durationSeconds * 100) / 100,
          content_type: RECORDING_CONTENT_TYPE,
        };
      }
      outcome = attemptOutcomeOf(result);
    } catch (error) {
      // Our side failed (script missing, speech tools): the call cannot go on; the contact counts as not reached.
      this.ports.logger.warn({ err: error, call_id: placed.call_id }, 'call failed on our side');
      command = { type: 'FailCall', data: { reason: 'interrupted', detail: `the voice agent failed: ${errorMessage(error)}`, ended_at: this.now() } };
      outcome = 'carrier_error';
    }
    try {
      if (endsAt.getTime() > this.ports.clock.now().getTime()) {
        // The sandbox knows the ending before the clock gets there: the call stays in progress until then.
        await this.ports.commands.handle(
          callDecider,
          callStream(placed.call_id),
          { type: 'HoldCallResult', data: { command, due_at: endsAt.toISOString() } },
          this.context(placed, causationId),
          { tolerate: CALL_MOVED_ON },
        );
        await this.scheduleEnd(placed, endsAt.toISOString(), causationId);
        return;
      }
      await this.ports.commands.handle(callDecider, callStream(placed.call_id), command, this.context(placed, causationId), { tolerate: CALL_MOVED_ON });
      await settlement.settle(placed.call_id, { outcome, causationId });
    } catch (error) {
      // The store is gone (shutdown): recovery on the next start finds the call claimed and unfinished.
      this.ports.logger.error({ err: error, call_id: placed.call_id }, 'could not record the result of a call');
    }
  }

  /** A durable timer at the held ending's time (its id is the call's: scheduling it again changes nothing). */
  private async scheduleEnd(placed: CallPlacement, dueAt: string, causationId: string | null): Promise<void> {
    const timerId = callEndTimerId(placed.call_id);
    await this.ports.commands.handle(
      timerDecider,
      timerStream(timerId),
      { type: 'ScheduleTimer', timerId, kind: CALL_END_TIMER_KIND, dueAt: new Date(dueAt), payload: { call_id: placed.call_id } },
      this.context(placed, causationId),
    );
  }

  /** The held ending of a call, recorded now that its time has come; then the follow-ups. */
  private async recordHeld(callId: string, causationId: string | null): Promise<void> {
    const { state } = await this.ports.commands.load(callDecider, callStream(callId));
    const placed = state.placed;
    if (placed === null) return;
    // Already recorded: the timer is handled again after a crash (or a leader's death) between recording and
    // settling, so the follow-ups may be missing; settling again is harmless.
    if (isHeld(state)) await this.ports.commands.handle(callDecider, callStream(callId), state.held!.command, this.context(placed, causationId), { tolerate: CALL_MOVED_ON });
    await this.dependencies.settlement.settle(callId, { causationId });
  }

  private context(placed: CallPlacement, causationId: string | null) {
    return { workspaceId: placed.workspace_id, actor: ACTOR, now: this.ports.clock.now(), causationId };
  }

  private now(): string {
    return this.ports.clock.now().toISOString();
  }
}

function isHeld(state: CallState): boolean {
  return state.status === 'in_progress' && state.held !== null;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
