import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, notFound } from './shared/errors.ts';
import { BCP47_DESCRIPTION, isBcp47Shape, isSupportedLanguage, SUPPORTED_LANGUAGES_DESCRIPTION } from './shared/language.ts';
import { E164_DESCRIPTION, isE164 } from './shared/phone.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * A human agent (stream `agent-<id>`, id `agt_...`): who takes over an escalated call, or places a call by hand.
 * Reachable by `phone` (E.164, through the trunk) and/or `sip_uri`; speaks `languages` (supported BCP-47 codes);
 * `available` agents get escalations, `offline` ones do not. Removed agents stay on the calls they handled.
 */
export const AGENT_STATUSES = ['available', 'offline'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const MAX_AGENT_NAME_LENGTH = 255;
export const MAX_AGENT_LANGUAGES = 10;
const SIP_URI = /^sips?:[^\s@]+@[^\s@]+$/;
export const SIP_URI_DESCRIPTION = 'a SIP URI such as sip:asha@pbx.example.com';

export interface AgentProfile {
  name: string;
  languages: string[];
  phone: string | null;
  sip_uri: string | null;
  status: AgentStatus;
}

export type AgentCommand =
  | { type: 'RegisterAgent'; agentId: string; workspaceId: string; profile: AgentProfile; now: Date }
  | { type: 'UpdateAgent'; agentId: string; workspaceId: string; changes: Partial<AgentProfile>; now: Date }
  | { type: 'RemoveAgent'; agentId: string; workspaceId: string; now: Date };

export type AgentRegistered = DomainEvent<'AgentRegistered', AgentProfile & { agent_id: string; workspace_id: string; created_at: string }>;
export type AgentUpdated = DomainEvent<'AgentUpdated', { agent_id: string; changes: Partial<AgentProfile>; updated_at: string }>;
export type AgentRemoved = DomainEvent<'AgentRemoved', { agent_id: string; removed_at: string }>;
export type AgentEvent = AgentRegistered | AgentUpdated | AgentRemoved;

export interface AgentState {
  status: 'none' | 'active' | 'removed';
  agentId: string;
  workspaceId: string;
  profile: AgentProfile | null;
  createdAt: string;
  updatedAt: string;
}

const agentStreams = streamCategory('agent');
export const agentStream = agentStreams.stream;
export const agentIdOf = agentStreams.idOf;

function invalidParameter(field: string, provided: unknown, expected: string): DomainError {
  return new DomainError('invalid_parameter', `${field}: expected ${expected}`, { field, provided, expected });
}

/** The rules of a profile, whole (a registration) or in part (an update, checked against the result). */
function checkProfile(profile: Partial<AgentProfile>): void {
  if (profile.name !== undefined && (typeof profile.name !== 'string' || profile.name.trim().length === 0 || profile.name.length > MAX_AGENT_NAME_LENGTH)) {
    throw invalidParameter('name', profile.name, `a non-empty string of at most ${MAX_AGENT_NAME_LENGTH} characters`);
  }
  if (profile.languages !== undefined) {
    if (!Array.isArray(profile.languages) || profile.languages.length === 0 || profile.languages.length > MAX_AGENT_LANGUAGES) {
      throw invalidParameter('languages', profile.languages, `1 to ${MAX_AGENT_LANGUAGES} language codes`);
    }
    profile.languages.forEach((language, index) => {
      if (!isBcp47Shape(language)) throw invalidParameter(`languages[${index}]`, language, BCP47_DESCRIPTION);
      if (!isSupportedLanguage(language)) throw invalidParameter(`languages[${index}]`, language, SUPPORTED_LANGUAGES_DESCRIPTION);
    });
    if (new Set(profile.languages).size !== profile.languages.length) throw invalidParameter('languages', profile.languages, 'each language once');
  }
  if (profile.phone !== undefined && profile.phone !== null && !isE164(profile.phone)) throw invalidParameter('phone', profile.phone, E164_DESCRIPTION);
  if (profile.sip_uri !== undefined && profile.sip_uri !== null && (typeof profile.sip_uri !== 'string' || !SIP_URI.test(profile.sip_uri) || profile.sip_uri.length > 255)) {
    throw invalidParameter('sip_uri', profile.sip_uri, SIP_URI_DESCRIPTION);
  }
  if (profile.status !== undefined && !(AGENT_STATUSES as readonly string[]).includes(profile.status)) {
    throw invalidParameter('status', profile.status, `one of ${AGENT_STATUSES.join(', ')}`);
  }
}

function requireReachable(profile: AgentProfile): void {
  if (profile.phone === null && profile.sip_uri === null) throw invalidParameter('phone', null, 'a phone (E.164) or a sip_uri: how to reach the agent');
}

export const agentDecider: Decider<AgentCommand, AgentEvent, AgentState> = {
  initialState: () => ({ status: 'none', agentId: '', workspaceId: '', profile: null, createdAt: '', updatedAt: '' }),

  evolve(state, event) {
    switch (event.type) {
      case 'AgentRegistered': {
        const { agent_id, workspace_id, name, languages, phone, sip_uri, status } = event.data;
        const { created_at } = event.data;
        return { status: 'active', agentId: agent_id, workspaceId: workspace_id, profile: { name, languages, phone, sip_uri, status }, createdAt: created_at, updatedAt: created_at };
      }
      case 'AgentUpdated':
        return { ...state, profile: { ...state.profile!, ...event.data.changes }, updatedAt: event.data.updated_at };
      case 'AgentRemoved':
        return { ...state, status: 'removed', updatedAt: event.data.removed_at };
    }
  },

  decide(command, state) {
    const at = command.now.toISOString();
    if (command.type === 'RegisterAgent') {
      if (state.status !== 'none') throw alreadyDone(`Agent ${state.agentId} already exists.`, { id: state.agentId });
      checkProfile(command.profile);
      requireReachable(command.profile);
      return [{ type: 'AgentRegistered', data: { agent_id: command.agentId, workspace_id: command.workspaceId, ...command.profile, created_at: at } }];
    }
    // Another workspace's agent, one never registered and one removed all look the same.
    if (state.status !== 'active' || state.workspaceId !== command.workspaceId) throw notFound('agent', command.agentId);
    if (command.type === 'RemoveAgent') return [{ type: 'AgentRemoved', data: { agent_id: state.agentId, removed_at: at } }];
    const { changes } = command;
    checkProfile(changes);
    requireReachable({ ...state.profile!, ...changes });
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([field, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify(state.profile![field as keyof AgentProfile])),
    ) as Partial<AgentProfile>;
    if (Object.keys(changed).length === 0) return [];
    return [{ type: 'AgentUpdated', data: { agent_id: state.agentId, changes: changed, updated_at: at } }];
  },
};
