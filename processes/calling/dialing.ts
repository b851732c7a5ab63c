import type { Runtime } from '../../composition.ts';
import { createTelephony } from '../../infra/telephony/create-telephony.ts';
import type { ProcessManager } from '../process-manager.ts';
import { CallRunner } from './call-runner.ts';
import { CallSettlement } from './call-settlement.ts';
import { createConversationEngine } from './create-conversation-engine.ts';
import { Dialer } from './dialer.ts';
import { DialingSlots } from './dialing-slots.ts';
import { ScriptVersions } from './script-versions.ts';

/** The calling module's process managers, sharing one set of dialing slots: the call runner, then the dialer. */
export function createDialingProcesses(runtime: Runtime, options: { maxCallsInFlight?: number } = {}): ProcessManager[] {
  const slots = new DialingSlots(runtime.readDb);
  const settlement = new CallSettlement(runtime, slots);
  const engine = createConversationEngine({ telephony: createTelephony(runtime.config) });
  const runner = new CallRunner(runtime, {
    engine,
    scripts: new ScriptVersions(runtime.store),
    slots,
    settlement,
    maxCallsInFlight: options.maxCallsInFlight,
  });
  return [runner, new Dialer(runtime, { slots, settlement })];
}
