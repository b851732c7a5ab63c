/**
 * A workspace's compliance settings (stream `compliance-settings-<workspace_id>`): which rule packs are enabled and
 * with which parameters. PUT /v1/compliance/settings replaces them as a whole; every change is an event, so the
 * history of what was enforced when is in the store. A workspace that never set them has the `general` pack only.
 */
import type { Decider, DomainEvent } from '../shared/decider.ts';
import { DomainError } from '../shared/errors.ts';
import { streamCategory } from '../shared/stream-name.ts';
import { defaultPacks, isRulePackId, parsePackParameters, RULE_PACK_IDS, RULE_PACKS, type EnabledPack } from './packs.ts';

export interface SetComplianceSettings {
  type: 'SetComplianceSettings';
  /** `packs` as the client sent it: validated here. */
  data: { workspace_id: string; packs: unknown; at: string };
}
export type ComplianceSettingsCommand = SetComplianceSettings;

export type ComplianceSettingsSet = DomainEvent<'ComplianceSettingsSet', { workspace_id: string; packs: EnabledPack[]; set_at: string }>;
export type ComplianceSettingsEvent = ComplianceSettingsSet;

export interface ComplianceSettingsState {
  packs: EnabledPack[];
  /** How many times they were set (0: the defaults). */
  revision: number;
  updated_at: string | null;
}

export const MAX_PACKS = RULE_PACK_IDS.length;

function invalid(field: string, provided: unknown, expected: string): DomainError {
  return new DomainError('invalid_parameter', `${field}: expected ${expected}`, { field, provided, expected });
}

/** The packs as a client sent them, validated (first problem reported with its field path) and with defaults filled in. */
export function validatePacks(packs: unknown): EnabledPack[] {
  if (!Array.isArray(packs)) throw invalid('packs', packs, 'an array of {id, parameters}');
  if (packs.length > MAX_PACKS) throw invalid('packs', packs.length, `at most ${MAX_PACKS} packs`);
  const seen = new Set<string>();
  return packs.map((entry, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid(`packs[${index}]`, entry, 'an object {id, parameters}');
    const { id, parameters, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw invalid(`packs[${index}].${extra}`, rest[extra], 'no such field (a pack has id and parameters)');
    if (!isRulePackId(id)) throw invalid(`packs[${index}].id`, id, `one of ${RULE_PACK_IDS.join(', ')}`);
    if (seen.has(id)) throw invalid(`packs[${index}].id`, id, 'a pack not already listed');
    seen.add(id);
    if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))) {
      throw invalid(`packs[${index}].parameters`, parameters, 'an object of the pack\'s parameters');
    }
    const parsed = parsePackParameters(id, parameters);
    if (!parsed.ok) throw invalid(`packs[${index}].parameters${parsed.path}`, parsed.provided, parsed.expected);
    return { id, version: RULE_PACKS[id].version, parameters: parsed.parameters };
  });
}

export const complianceSettingsDecider: Decider<ComplianceSettingsCommand, ComplianceSettingsEvent, ComplianceSettingsState> = {
  initialState: () => ({ packs: defaultPacks(), revision: 0, updated_at: null }),
  evolve: (state, event) => ({ packs: event.data.packs, revision: state.revision + 1, updated_at: event.data.set_at }),
  decide(command, state) {
    const packs = validatePacks(command.data.packs);
    // The same settings again (a retried PUT): nothing changed, nothing recorded.
    if (state.revision > 0 && JSON.stringify(packs) === JSON.stringify(state.packs)) return [];
    return [{ type: 'ComplianceSettingsSet', data: { workspace_id: command.data.workspace_id, packs, set_at: command.data.at } }];
  },
};

const settingsStreams = streamCategory('compliance-settings');
export const complianceSettingsStream = settingsStreams.stream;
export const complianceSettingsWorkspaceIdOf = settingsStreams.idOf;
