import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultPack, type EnabledPack } from '../../../domain/compliance/packs.ts';
import type { PreDialFacts } from '../../../domain/compliance/pre-dial.ts';
import { decidePreDial } from '../../../domain/compliance/pre-dial-rules.ts';

// The pre-dial rules as pure functions of the facts and the packs' parameters (issue 14).

const facts = (overrides: Partial<PreDialFacts> = {}): PreDialFacts => ({
  now: new Date('2026-03-02T06:30:00Z'), // 12:00 IST
  purpose: 'recovery',
  timezone: null,
  consent: null,
  doNotCall: false,
  optedOut: false,
  attemptsToday: 0,
  attemptsThisWeek: 0,
  ...overrides,
});

const pack = (id: EnabledPack['id'], parameters: Record<string, unknown> = {}): EnabledPack => {
  const base = defaultPack(id);
  return { ...base, parameters: { ...base.parameters, ...parameters } };
};

const rbi = [pack('in-rbi-recovery')];

test('recovery window: 08:00 inclusive, 19:00 exclusive, in the borrower\'s zone (default Asia/Kolkata)', () => {
  assert.is(decidePreDial(facts({ now: new Date('2026-03-02T02:30:00Z') }), rbi), null, '08:00 IST');
  const at1900 = decidePreDial(facts({ now: new Date('2026-03-02T13:30:00Z') }), rbi)!;
  assert.is(at1900.rule_id, 'in-rbi-recovery.calling_window');
  assert.is(at1900.outcome, 'wait');
  assert.is(at1900.outcome === 'wait' && at1900.until.toISOString(), '2026-03-03T02:30:00.000Z');
  const early = decidePreDial(facts({ now: new Date('2026-03-02T01:00:00Z') }), rbi)!; // 06:30 IST: today 08:00
  assert.is(early.outcome === 'wait' && early.until.toISOString(), '2026-03-02T02:30:00.000Z');
  // The contact's own zone: 19:30 IST is 18:00 in Dubai.
  assert.is(decidePreDial(facts({ now: new Date('2026-03-02T14:00:00Z'), timezone: 'Asia/Dubai' }), rbi), null);
  // A parameter moves the default zone.
  assert.is(decidePreDial(facts({ now: new Date('2026-03-02T14:00:00Z') }), [pack('in-rbi-recovery', { default_timezone: 'Asia/Dubai' })]), null);
});

test('the recovery pack applies to recovery calls only', () => {
  assert.is(decidePreDial(facts({ purpose: 'service', now: new Date('2026-03-02T20:00:00Z') }), rbi), null);
});

test('attempt caps: per day, then per 7 days; a capped attempt waits for the next day\'s window', () => {
  const capped = decidePreDial(facts({ attemptsToday: 3 }), rbi)!;
  assert.equal([capped.rule_id, capped.severity, capped.reason], ['in-rbi-recovery.attempt_cap', 'warning', '3 attempts today, the cap is 3 a day']);
  assert.is(capped.outcome === 'wait' && capped.until.toISOString(), '2026-03-03T02:30:00.000Z');
  assert.is(decidePreDial(facts({ attemptsToday: 2, attemptsThisWeek: 9 }), rbi), null);
  assert.is(decidePreDial(facts({ attemptsToday: 2, attemptsThisWeek: 10 }), rbi)!.reason, '10 attempts in 7 days, the cap is 10');
});

test('TRAI: promotional calls need consent and a number off the do-not-call list (final); 09:00-21:00 for every purpose', () => {
  const trai = [pack('in-trai')];
  const promotional = facts({ purpose: 'promotional' });
  assert.equal(decidePreDial(promotional, trai), {
    outcome: 'final',
    reason: 'no consent recorded for promotional calls',
    rule_id: 'in-trai.consent_and_dnd',
    check: 'consent_and_dnd',
    severity: 'critical',
    rule_pack: { id: 'in-trai', version: '1.0.0' },
  });
  const consent = { given_at: '2026-01-01T00:00:00Z', purpose: 'promotional' as const };
  assert.is(decidePreDial({ ...promotional, consent }, trai), null);
  assert.is(decidePreDial({ ...promotional, consent, doNotCall: true }, trai)!.reason, 'the number is on the do-not-call list');
  assert.is(decidePreDial({ ...promotional, consent: { ...consent, given_at: '2026-03-05T00:00:00Z' } }, trai)!.reason, 'the consent is dated 2026-03-05T00:00:00Z, after the call');
  assert.is(decidePreDial(facts({ purpose: 'service' }), trai), null, 'service calls need no consent');
  const late = decidePreDial(facts({ purpose: 'service', now: new Date('2026-03-02T15:45:00Z') }), trai)!; // 21:15 IST
  assert.is(late.rule_id, 'in-trai.calling_window');
  assert.is(late.outcome === 'wait' && late.until.toISOString(), '2026-03-03T03:30:00.000Z');
});

test('TRAI caller IDs: 140 for promotional, 1600 for service and recovery, checked only when configured', () => {
  const configured = [pack('in-trai', { caller_ids: { promotional: '+91 140 1234 5678', service: '1600123456', recovery: '+919876500000' } })];
  const consent = { given_at: '2026-01-01T00:00:00Z', purpose: 'promotional' as const };
  assert.is(decidePreDial(facts({ purpose: 'promotional', consent }), configured), null);
  assert.is(decidePreDial(facts({ purpose: 'service' }), configured), null);
  const recovery = decidePreDial(facts({ purpose: 'recovery' }), configured)!;
  assert.equal([recovery.rule_id, recovery.outcome, recovery.reason], ['in-trai.caller_id_series', 'final', 'the recovery caller ID +919876500000 is not in the 1600 series']);
  assert.is(decidePreDial(facts({ purpose: 'recovery' }), [pack('in-trai')]), null, 'not configured: not checked');
  // The call's own caller id is the number the customer sees: it is checked, configured or not, and wins.
  assert.is(decidePreDial(facts({ purpose: 'recovery', callerId: '+91 1600 222 333' }), configured), null);
  assert.is(decidePreDial(facts({ purpose: 'service', callerId: '+911140000000' }), [pack('in-trai')])!.reason, 'the service caller ID +911140000000 is not in the 1600 series');
});

test('DPDP: a number that opted out is never called again', () => {
  assert.is(decidePreDial(facts({ optedOut: true, purpose: 'service' }), [pack('in-dpdp')])!.rule_id, 'in-dpdp.opted_out');
  assert.is(decidePreDial(facts({ optedOut: true }), [pack('general')]), null, 'general has no pre-dial rule');
});

test('several blocks: a final one wins over a wait; among waits the latest', () => {
  const all = [pack('in-rbi-recovery'), pack('in-trai'), pack('in-dpdp')];
  const night = new Date('2026-03-02T20:00:00Z'); // 01:30 IST
  const waits = decidePreDial(facts({ now: night }), all)!;
  assert.is(waits.rule_id, 'in-trai.calling_window', 'TRAI opens at 09:00, after RBI\'s 08:00');
  assert.is(decidePreDial(facts({ now: night, optedOut: true }), all)!.rule_id, 'in-dpdp.opted_out');
});

test.run();
