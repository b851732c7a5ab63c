import type { EventStore } from '../../infra/eventstore/port.ts';
import type { Telephony } from '../../infra/telephony/port.ts';
import type { ProcessManager } from '../process-manager.ts';
import { CallRunner, type CallRunnerPorts } from './call-runner.ts';
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
}

/** The calling module's process managers, sharing one set of dialing slots: the call runner, then the dialer. */
export function createDialingProcesses(ports: DialingPorts, options: { maxCallsInFlight?: number } = {}): ProcessManager[] {
  const slots = new DialingSlots(ports.readDb);
  const settlement = new CallSettlement(ports, slots);
  const runner = new CallRunner(ports, {
    engine: createConversationEngine({ telephony: ports.telephony, speech: ports.conversationSpeech }),
    scripts: new ScriptVersions(ports.store),
    slots,
    settlement,
    timeScale: ports.telephony.timeScale,
    maxCallsInFlight: options.maxCallsInFlight,
  });
  return [runner, new Dialer(ports, { slots, settlement })];
}
