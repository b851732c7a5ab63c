/**
 * The rule packs a workspace can enable (issue 14; sources and limits in docs/compliance.md). A pack is versioned
 * code plus parameters: its id, its version (bumped whenever a rule's detection or meaning changes, so a stored result
 * names the code that produced it), the purposes its rules apply to, and the zod schema of its parameters with
 * their defaults. The rules themselves are in pre-dial-rules.ts and post-call-rules.ts.
 */
import { z } from 'zod';
import { isValidTimezone } from '../shared/time-zone.ts';
import { GENERAL_DEFAULTS } from './packs/general.ts';
import { IN_DPDP_DEFAULTS, SECTORS } from './packs/in-dpdp.ts';
import { IN_RBI_RECOVERY_DEFAULTS } from './packs/in-rbi-recovery.ts';
import { CALL_PURPOSES, type CallPurpose } from './rule.ts';

export const RULE_PACK_IDS = ['in-rbi-recovery', 'in-trai', 'in-dpdp', 'general'] as const;
export type RulePackId = (typeof RULE_PACK_IDS)[number];

const Timezone = z.string().max(64).refine(isValidTimezone, { message: 'an IANA time zone such as Asia/Kolkata' });
const Seconds = (fallback: number) => z.number().int().min(1).max(600).default(fallback);

const RbiRecoveryParameters = z
  .strictObject({
    /** The borrower's zone when neither the contact nor the campaign's schedule names one. */
    default_timezone: Timezone.default('Asia/Kolkata'),
    max_attempts_per_day: z.number().int().min(1).max(50).default(3),
    max_attempts_per_week: z.number().int().min(1).max(350).default(10),
    /** Agent and lender named in a turn starting within this many seconds of the call's start. */
    intro_window_seconds: Seconds(IN_RBI_RECOVERY_DEFAULTS.intro_window_seconds),
    /** An agent sentiment at or below this counts as hostile, as a threat would. */
    threat_sentiment_threshold: z.number().min(-1).max(0).default(IN_RBI_RECOVERY_DEFAULTS.threat_sentiment_threshold),
  })
  .refine((parameters) => parameters.max_attempts_per_week >= parameters.max_attempts_per_day, {
    path: ['max_attempts_per_week'],
    message: 'at least max_attempts_per_day',
  });

/** 140 for promotional calls, 1600 for service and transactional ones (TRAI's 2025 direction on number series). */
const CallerId = z.string().regex(/^\+?[0-9][0-9 -]{3,18}$/, { message: 'a phone number or header such as 1600123456 or +91 140 1234 5678' });

const TraiParameters = z.strictObject({
  default_timezone: Timezone.default('Asia/Kolkata'),
  /**
   * The numbers the workspace presents as caller ID, per purpose; a purpose without one is not checked (the carrier
   * decides the caller ID).
   */
  caller_ids: z
    .strictObject({ service: CallerId.optional(), promotional: CallerId.optional(), recovery: CallerId.optional() })
    .default({}),
});

const DpdpParameters = z.strictObject({
  /** The recording disclosure's severity: `lender` warning, `insurer` critical (IRDAI's distance-marketing guidelines). */
  sector: z.enum(SECTORS).default(IN_DPDP_DEFAULTS.sector),
  disclosure_window_seconds: Seconds(IN_DPDP_DEFAULTS.disclosure_window_seconds),
});

const GeneralParameters = z.strictObject({
  identity_window_seconds: Seconds(GENERAL_DEFAULTS.identity_window_seconds),
  /** The agent's share of the talk time above which the call is a monologue. */
  max_agent_talk_share: z.number().min(0.1).max(1).default(GENERAL_DEFAULTS.max_agent_talk_share),
  /** Talk share is judged only on calls with at least this much talk. */
  min_talk_seconds: z.number().min(0).max(3600).default(GENERAL_DEFAULTS.min_talk_seconds),
  max_dead_air_seconds: z.number().min(1).max(300).default(GENERAL_DEFAULTS.max_dead_air_seconds),
});

export interface RulePack {
  id: RulePackId;
  version: string;
  title: string;
  /** The call purposes its rules apply to. */
  purposes: readonly CallPurpose[];
  parameters: z.ZodType<Record<string, unknown>>;
}

export const RULE_PACKS: Readonly<Record<RulePackId, RulePack>> = {
  'in-rbi-recovery': {
    id: 'in-rbi-recovery',
    version: '1.0.0',
    title: 'RBI recovery agents (2022 circular): calling hours, attempt caps, no threats or false claims, introduction, identity before debt',
    purposes: ['recovery'],
    parameters: RbiRecoveryParameters,
  },
  'in-trai': {
    id: 'in-trai',
    version: '1.0.0',
    title: 'TRAI TCCCPR 2018 and its 2025 amendment: consent and do-not-call for promotional calls, 140/1600 caller IDs, 09:00-21:00',
    purposes: CALL_PURPOSES,
    parameters: TraiParameters,
  },
  'in-dpdp': {
    id: 'in-dpdp',
    version: '1.0.0',
    title: 'DPDP Act 2023: recording disclosure, opt-outs honoured',
    purposes: CALL_PURPOSES,
    parameters: DpdpParameters,
  },
  general: {
    id: 'general',
    version: '1.0.0',
    title: 'Good practice: identity and purpose early, no monologue, no long dead air',
    purposes: CALL_PURPOSES,
    parameters: GeneralParameters,
  },
};

export function isRulePackId(value: unknown): value is RulePackId {
  return typeof value === 'string' && (RULE_PACK_IDS as readonly string[]).includes(value);
}

/** A pack as a workspace enabled it: its version and its parameters with every default filled in. */
export interface EnabledPack {
  id: RulePackId;
  version: string;
  parameters: Record<string, unknown>;
}

/** The pack's parameters with defaults, or the first problem as a field path relative to `parameters` and what was expected. */
export function parsePackParameters(
  id: RulePackId,
  parameters: unknown,
): { ok: true; parameters: Record<string, unknown> } | { ok: false; path: string; provided: unknown; expected: string } {
  const parsed = RULE_PACKS[id].parameters.safeParse(parameters ?? {});
  if (parsed.success) return { ok: true, parameters: parsed.data };
  const issue = parsed.error.issues[0]!;
  const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0]! : null;
  const parts = unknownKey === null ? issue.path : [...issue.path, unknownKey];
  const path = parts.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  const provided = parts.reduce<unknown>((value, part) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[part as PropertyKey] : undefined), parameters ?? {});
  const expected = unknownKey === null ? issue.message : `no parameter "${unknownKey}" here (the pack's parameters: ${parameterNames(id).join(', ')})`;
  return { ok: false, path, provided, expected };
}

export function parameterNames(id: RulePackId): string[] {
  return Object.keys(RULE_PACKS[id].parameters.parse({}));
}

export function defaultPack(id: RulePackId): EnabledPack {
  return { id, version: RULE_PACKS[id].version, parameters: RULE_PACKS[id].parameters.parse({}) };
}

/** A workspace that never configured compliance: the `general` pack only (no pre-dial rule, so nothing is blocked). */
export function defaultPacks(): EnabledPack[] {
  return [defaultPack('general')];
}

/** Whether the pack's rules apply to a call of this purpose. */
export function packApplies(id: RulePackId, purpose: CallPurpose): boolean {
  return RULE_PACKS[id].purposes.includes(purpose);
}
