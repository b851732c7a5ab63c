/**
 * The pre-dial rules of each pack (issue 14) and the one function the dialer and POST /v1/calls ask before an
 * attempt. Pure functions of the facts (pre-dial.ts) and the pack's parameters (packs.ts, defaults filled in).
 */
import { isWithinCallingHours, nextCallingTime, type CallingHours } from '../campaign/schedule.ts';
import { addDays, localDateOf, startOfLocalDate } from '../shared/time-zone.ts';
import { packApplies, type EnabledPack, type RulePackId } from './packs.ts';
import type { PreDialBlock, PreDialFacts, PreDialRule } from './pre-dial.ts';
import type { ComplianceSeverity, RuleParameters } from './rule.ts';

/** RBI's 2022 circular on recovery agents: borrowers are not called before 08:00 or after 19:00. */
export const RBI_RECOVERY_WINDOW: CallingHours = { start: '08:00', end: '19:00' };
/** TRAI TCCCPR: commercial communication 09:00-21:00. */
export const TRAI_WINDOW: CallingHours = { start: '09:00', end: '21:00' };

function zoneOf(facts: PreDialFacts, parameters: RuleParameters): string {
  return facts.timezone ?? String(parameters.default_timezone ?? 'Asia/Kolkata');
}

function windowRule(id: string, window: CallingHours, description: string, purposes: 'recovery' | 'all'): PreDialRule {
  return {
    id,
    kind: 'pre-dial',
    severity: 'critical',
    description,
    applies: (facts) => purposes === 'all' || facts.purpose === purposes,
    check(facts, parameters) {
      const zone = zoneOf(facts, parameters);
      if (isWithinCallingHours(facts.now, window, zone)) return null;
      return { outcome: 'wait', reason: `outside ${window.start}-${window.end} in ${zone}`, until: nextCallingTime(facts.now, window, zone) };
    },
  };
}

/** The next day's opening of the window in the zone: where a capped attempt is deferred to. */
function nextDayOpening(now: Date, window: CallingHours, zone: string): Date {
  const tomorrow = startOfLocalDate(addDays(localDateOf(now, zone), 1), zone);
  return nextCallingTime(tomorrow, window, zone);
}

const attemptCap: PreDialRule = {
  id: 'in-rbi-recovery.attempt_cap',
  kind: 'pre-dial',
  severity: 'warning',
  description: 'Attempts per borrower are capped per day and per 7 days (parameters max_attempts_per_day, max_attempts_per_week); a capped attempt waits for the next day.',
  applies: (facts) => facts.purpose === 'recovery',
  check(facts, parameters) {
    const perDay = Number(parameters.max_attempts_per_day);
    const perWeek = Number(parameters.max_attempts_per_week);
    const zone = zoneOf(facts, parameters);
    let reason: string | null = null;
    if (facts.attemptsToday >= perDay) reason = `${facts.attemptsToday} attempts today, the cap is ${perDay} a day`;
    else if (facts.attemptsThisWeek >= perWeek) reason = `${facts.attemptsThisWeek} attempts in 7 days, the cap is ${perWeek}`;
    return reason === null ? null : { outcome: 'wait', reason, until: nextDayOpening(facts.now, RBI_RECOVERY_WINDOW, zone) };
  },
};

const consentAndDoNotCall: PreDialRule = {
  id: 'in-trai.consent_and_dnd',
  kind: 'pre-dial',
  severity: 'critical',
  description: 'A promotional call goes only to a number that is not on the do-not-call list and whose contact carries a promotional consent given before the call.',
  applies: (facts) => facts.purpose === 'promotional',
  check(facts) {
    if (facts.doNotCall) return { outcome: 'final', reason: 'the number is on the do-not-call list' };
    const consent = facts.consent;
    if (consent === null) return { outcome: 'final', reason: 'no consent recorded for promotional calls' };
    if (consent.purpose !== 'promotional') return { outcome: 'final', reason: `the consent is for ${consent.purpose} calls, not promotional ones` };
    if (Date.parse(consent.given_at) > facts.now.getTime()) return { outcome: 'final', reason: `the consent is dated ${consent.given_at}, after the call` };
    return null;
  },
};

/** Digits of a caller ID without the country code or trunk prefix: `+91 140 1234 5678` → `14012345678`. */
function nationalDigits(callerId: string): string {
  const digits = callerId.replace(/\D/g, '');
  if (callerId.trim().startsWith('+91')) return digits.slice(2);
  return digits.startsWith('0') ? digits.slice(1) : digits;
}

const callerIdSeries: PreDialRule = {
  id: 'in-trai.caller_id_series',
  kind: 'pre-dial',
  severity: 'critical',
  description:
    "When the call names its caller ID (caller_id, its own or its campaign's) or the workspace configures one per purpose (parameter caller_ids), a promotional call shows a 140-series number and a service or recovery call a 1600-series one; the call's own caller ID is the one checked.",
  applies: (facts, parameters) => Boolean(facts.callerId) || typeof (parameters.caller_ids as Record<string, unknown> | undefined)?.[facts.purpose] === 'string',
  check(facts, parameters) {
    const callerId = facts.callerId || String((parameters.caller_ids as Record<string, unknown>)[facts.purpose]);
    const series = facts.purpose === 'promotional' ? '140' : '1600';
    if (nationalDigits(callerId).startsWith(series)) return null;
    return { outcome: 'final', reason: `the ${facts.purpose} caller ID ${callerId} is not in the ${series} series` };
  },
};

const optedOut: PreDialRule = {
  id: 'in-dpdp.opted_out',
  kind: 'pre-dial',
  severity: 'critical',
  description: 'A number whose owner asked, on an earlier call, not to be called again is never called.',
  applies: () => true,
  check: (facts) => (facts.optedOut ? { outcome: 'final', reason: 'the person asked not to be called again on an earlier call' } : null),
};

export const PRE_DIAL_RULES: Readonly<Record<RulePackId, readonly PreDialRule[]>> = {
  'in-rbi-recovery': [
    windowRule('in-rbi-recovery.calling_window', RBI_RECOVERY_WINDOW, 'Recovery calls only 08:00-19:00 in the borrower\'s time zone.', 'recovery'),
    attemptCap,
  ],
  'in-trai': [consentAndDoNotCall, callerIdSeries, windowRule('in-trai.calling_window', TRAI_WINDOW, 'Calls only 09:00-21:00 local time.', 'all')],
  'in-dpdp': [optedOut],
  general: [],
};

/** An attempt the rules refuse: which rule, of which pack, and what becomes of the contact. */
export type PreDialDecision = PreDialBlock & {
  rule_id: string;
  check: string;
  severity: ComplianceSeverity;
  rule_pack: { id: RulePackId; version: string };
};

/**
 * Every enabled pre-dial rule that applies, asked in turn; null when none blocks. When several block, a final block
 * wins (waiting would not help), else the wait that ends last (the contact is not woken only to wait again).
 */
export function decidePreDial(facts: PreDialFacts, packs: readonly EnabledPack[]): PreDialDecision | null {
  let chosen: PreDialDecision | null = null;
  for (const pack of packs) {
    if (!packApplies(pack.id, facts.purpose)) continue;
    for (const rule of PRE_DIAL_RULES[pack.id]) {
      if (!rule.applies(facts, pack.parameters)) continue;
      const block = rule.check(facts, pack.parameters);
      if (block === null) continue;
      const decision: PreDialDecision = {
        ...block,
        rule_id: rule.id,
        check: rule.id.slice(rule.id.indexOf('.') + 1),
        severity: rule.severity,
        rule_pack: { id: pack.id, version: pack.version },
      };
      if (chosen === null || outranks(decision, chosen)) chosen = decision;
    }
  }
  return chosen;
}

function outranks(candidate: PreDialDecision, current: PreDialDecision): boolean {
  if (current.outcome === 'final') return false;
  if (candidate.outcome === 'final') return true;
  return candidate.until.getTime() > current.until.getTime();
}

/** Every pre-dial rule of every pack, for the documentation and the settings' GET. */
export function preDialRulesOf(id: RulePackId): readonly PreDialRule[] {
  return PRE_DIAL_RULES[id];
}
