import type { FailCall, RecordCallResult } from '../../domain/call.ts';

/**
 * Who takes over an escalated call: the agent who placed it by hand, else `available` (the least recently
 * assigned available agent who speaks the call's language, looked up by the caller just now), else nobody, with
 * the reason recorded on the call. A pure choice: the call runner gathers the facts and appends the result.
 */
export function assignEscalation(command: RecordCallResult | FailCall, placedBy: string | null | undefined, available: string | undefined): RecordCallResult | FailCall {
  if (command.type !== 'RecordCallResult' || command.data.escalation === null) return command;
  const agentId = placedBy ?? available ?? null;
  const escalation = { ...command.data.escalation, agent_id: agentId, unassigned_reason: agentId === null ? ('no_available_agent' as const) : null };
  return { ...command, data: { ...command.data, escalation } };
}
