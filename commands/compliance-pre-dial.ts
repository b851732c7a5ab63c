import type { Database } from 'better-sqlite3';
import { contactComplianceFields } from '../domain/compliance/contact-fields.ts';
import type { EnabledPack } from '../domain/compliance/packs.ts';
import type { PreDialFacts } from '../domain/compliance/pre-dial.ts';
import { decidePreDial, PRE_DIAL_RULES, type PreDialDecision } from '../domain/compliance/pre-dial-rules.ts';
import type { CallPurpose } from '../domain/compliance/rule.ts';
import { complianceSettingsDecider, complianceSettingsStream } from '../domain/compliance/settings.ts';
import { localDateOf, startOfLocalDate } from '../domain/shared/time-zone.ts';
import { hasOptedOut, isSuppressed, suppressionDecider, suppressionStream } from '../domain/suppression.ts';
import { callsToNumberSince } from '../projections/calls.ts';
import type { Commands } from './handler.ts';

/**
 * Gathers the facts the pre-dial rules decide on (domain/compliance/pre-dial.ts) and asks them: the dialer before
 * every campaign attempt, POST /v1/calls before a single call. The settings and the do-not-call list come from their
 * own streams (a change a moment ago counts); the attempts so far from the calls read model, indexed by number.
 */
export interface PreDialRequest {
  workspaceId: string;
  phone: string;
  purpose: CallPurpose;
  /** The contact's custom fields (reserved: `timezone`, `consent`), already validated. */
  fields: Readonly<Record<string, unknown>>;
  /** The campaign schedule's explicit zone, if it named one. */
  campaignTimezone: string | null;
  now: Date;
  /** The call's own caller id (E.164), when it or its campaign names one. */
  callerId?: string | null;
}

export async function enabledPacks(commands: Pick<Commands, 'load'>, workspaceId: string): Promise<EnabledPack[]> {
  return (await commands.load(complianceSettingsDecider, complianceSettingsStream(workspaceId))).state.packs;
}

function hasPreDialRules(packs: readonly EnabledPack[]): boolean {
  return packs.some((pack) => PRE_DIAL_RULES[pack.id].length > 0);
}

export async function askPreDialRules(ports: { commands: Pick<Commands, 'load'>; readDb: Database }, request: PreDialRequest): Promise<PreDialDecision | null> {
  const packs = await enabledPacks(ports.commands, request.workspaceId);
  if (!hasPreDialRules(packs)) return null;
  const { state: suppressions } = await ports.commands.load(suppressionDecider, suppressionStream(request.workspaceId));
  const { timezone, consent } = contactComplianceFields(request.fields);
  const zone = timezone ?? request.campaignTimezone;
  // Days are counted in the borrower's zone (India's when unknown: the packs' default_timezone is the same).
  const dayZone = zone ?? 'Asia/Kolkata';
  const startOfDay = startOfLocalDate(localDateOf(request.now, dayZone), dayZone);
  const weekAgo = new Date(request.now.getTime() - 7 * 86_400_000);
  const facts: PreDialFacts = {
    now: request.now,
    purpose: request.purpose,
    timezone: zone,
    consent,
    doNotCall: isSuppressed(suppressions, request.phone),
    optedOut: hasOptedOut(suppressions, request.phone),
    attemptsToday: callsToNumberSince(ports.readDb, request.workspaceId, request.phone, startOfDay),
    attemptsThisWeek: callsToNumberSince(ports.readDb, request.workspaceId, request.phone, weekAgo),
    callerId: request.callerId ?? null,
  };
  return decidePreDial(facts, packs);
}
