import type { EventStore } from '../../infra/eventstore/port.ts';
import type { Telephony } from '../../infra/telephony/port.ts';
import type { WorkQueue } from '../../infra/work-queue/port.ts';
import type { ProcessManager } from '../process-manager.ts';
import { CALLS_QUEUE, CallRunner, type CallRunnerPorts } from './call-runner.ts';
import { CallSettlement } from './call-settlement.ts';
import { createConversationEngine } from './create-conversation-engine.ts';
import type { ConversationSpeech } from './conversation-ports.ts';
import { Dialer } from './dialer.ts';
import { DialingSlots } from './dialing-slots.ts';
import { ScriptVersions } from './script-versions.ts';

export interface DialingPorts extends CallRunnerPorts {
  store: Pick<EventStore, 'headPosition' | 'readStream'>;
  /** The carrier (infra/telephony): the sandbox, or a real trunk. */
  telephony: Telephony;
  /** Synthesis of prompts, and recognition for carriers that deliver audio only. */
  conversationSpeech: ConversationSpeech;
  /** A cluster's shared work queue: placed calls go there and any node carries them. Absent: this process carries them. */
  workQueue?: WorkQueue | null;
}

/**
 * A call's claims on the calls queue before it is parked. Generous: taking a call over is always safe (an undialed
 * call is dialed once, a dialed one is failed as interrupted), and a parked call would never end, holding its
 * campaign open; a claim may expire only because its node stalled under load, not because the call is at fault.
 */
const CALL_ATTEMPTS = 20;

/**
 * The calling module's process managers, sharing one set of dialing slots: the call runner, then the dialer. With
 * a work queue (a cluster's leader), the call runner enqueues each placed call for any node to carry (`createCallCarrier`).
 */
export function createDialingProcesses(ports: DialingPorts, options: { maxCallsInFlight?: number } = {}): ProcessManager[] {
  const slots = new DialingSlots(ports.readDb);
  const settlement = new CallSettlement(ports, slots);
  const queue = ports.workQueue ?? null;
  const runner = new CallRunner(ports, {
    engine: createConversationEngine({ telephony: ports.telephony, speech: ports.conversationSpeech }),
    scripts: new ScriptVersions(ports.store),
    slots,
    settlement,
    timeScale: ports.telephony.timeScale,
    maxCallsInFlight: options.maxCallsInFlight,
    carriers: queue
      ? { kind: 'work-queue', enqueue: (callId) => queue.enqueue(CALLS_QUEUE, { id: callId, payload: { call_id: callId }, maxAttempts: CALL_ATTEMPTS }) }
      : { kind: 'this-process' },
  });
  return [runner, new Dialer(ports, { slots, settlement })];
}

/**
 * What a cluster node carries calls with when it claims them from the calls queue (`CallRunner.carry`): a call
 * runner of its own, outside the leader's singleton work, with its own slots (the leader's dialer keeps the
 * workspace's dialing concurrency; this node's share is bounded by its queue consumer's concurrency).
 */
export function createCallCarrier(ports: Omit<DialingPorts, 'workQueue'>): CallRunner {
  const slots = new DialingSlots(ports.readDb);
  return new CallRunner(ports, {
    engine: createConversationEngine({ telephony: ports.telephony, speech: ports.conversationSpeech }),
    scripts: new ScriptVersions(ports.store),
    slots,
    settlement: new CallSettlement(ports, slots),
    timeScale: ports.telephony.timeScale,
  });
}
