import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluatePostCall, type PostCallRuleResult } from '../../../domain/compliance/post-call-rules.ts';
import type { PostCallInput, RuleParameters } from '../../../domain/compliance/rule.ts';
import { callInput, LANGUAGES, transcript, type LanguageLines } from './fixtures.ts';

// Given a call in each language, when its post-call rules are evaluated, then each rule fails on the violating call
// and passes on the clean one.

const ALL_PACKS = [
  { id: 'in-rbi-recovery', parameters: {} },
  { id: 'in-trai', parameters: {} },
  { id: 'in-dpdp', parameters: {} },
  { id: 'general', parameters: {} },
];

function resultOf(input: PostCallInput, ruleId: string, packs: ReadonlyArray<{ id: string; parameters: RuleParameters }> = ALL_PACKS): PostCallRuleResult | undefined {
  return evaluatePostCall(input, packs).find((result) => result.rule_id === ruleId);
}

function failed(input: PostCallInput, ruleId: string, packs?: ReadonlyArray<{ id: string; parameters: RuleParameters }>): boolean {
  const result = resultOf(input, ruleId, packs);
  assert.ok(result, `${ruleId} should apply`);
  return !result.passed;
}

function recoveryCall(lines: LanguageLines, agentLine: string, overrides: Partial<PostCallInput> = {}): PostCallInput {
  return callInput(lines, transcript([['agent', lines.intro], ['customer', lines.yes], ['agent', lines.debt], ['customer', '...'], ['agent', agentLine]]), overrides);
}

for (const lines of LANGUAGES) {
  const { name } = lines;

  test(`${name}: a clean recovery call fails no rule`, () => {
    const input = callInput(lines, transcript([['agent', lines.intro], ['customer', lines.yes], ['agent', lines.debt]]));
    const failures = evaluatePostCall(input, ALL_PACKS).filter((result) => !result.passed);
    assert.equal(failures, []);
  });

  test(`${name}: no_threats fails on the agent's threat and passes on a denial`, () => {
    assert.ok(failed(recoveryCall(lines, lines.threat), 'in-rbi-recovery.no_threats'));
    assert.not.ok(failed(recoveryCall(lines, lines.negatedThreat), 'in-rbi-recovery.no_threats'));
  });

  test(`${name}: no_false_claims fails on "police will arrest you", passes when negated or said by the customer`, () => {
    assert.ok(failed(recoveryCall(lines, lines.falseClaim), 'in-rbi-recovery.no_false_claims'));
    assert.not.ok(failed(recoveryCall(lines, lines.negatedClaim), 'in-rbi-recovery.no_false_claims'));
    const customerSaysIt = callInput(lines, transcript([['agent', lines.intro], ['customer', lines.yes], ['agent', lines.debt], ['customer', lines.customerPolice]]));
    assert.not.ok(failed(customerSaysIt, 'in-rbi-recovery.no_false_claims'));
  });

  test(`${name}: agent_and_lender_named fails when neither is said in the first 30 s`, () => {
    const unnamed = callInput(lines, transcript([['agent', lines.introWithoutNames], ['customer', lines.yes], ['agent', lines.debt]]));
    const result = resultOf(unnamed, 'in-rbi-recovery.agent_and_lender_named')!;
    assert.is(result.passed, false);
    assert.is(result.severity, 'critical');
    assert.is(result.findings.length, 2);
    assert.not.ok(failed(recoveryCall(lines, lines.debt), 'in-rbi-recovery.agent_and_lender_named'));
  });

  test(`${name}: agent_and_lender_named counts only what is said within the window`, () => {
    const late = callInput(lines, transcript([['agent', lines.introWithoutNames], 31, ['agent', lines.intro], ['customer', lines.yes]]));
    assert.ok(failed(late, 'in-rbi-recovery.agent_and_lender_named'));
    assert.not.ok(failed(late, 'in-rbi-recovery.agent_and_lender_named', [{ id: 'in-rbi-recovery', parameters: { intro_window_seconds: 60 } }]));
  });

  test(`${name}: no_debt_before_identity fails when the debt comes before the borrower is confirmed`, () => {
    const upfront = callInput(lines, transcript([['agent', lines.introWithDebt], ['customer', lines.thirdParty]]));
    const result = resultOf(upfront, 'in-rbi-recovery.no_debt_before_identity')!;
    assert.is(result.passed, false);
    assert.is(result.findings[0]!.evidence!.text, lines.introWithDebt);
    const toSomeoneElse = callInput(lines, transcript([['agent', lines.intro], ['customer', lines.thirdParty], ['agent', lines.debt]]));
    assert.ok(failed(toSomeoneElse, 'in-rbi-recovery.no_debt_before_identity'), 'a third party answering is not a confirmation');
    assert.not.ok(failed(recoveryCall(lines, lines.debt), 'in-rbi-recovery.no_debt_before_identity'));
  });

  test(`${name}: no_promotional_content_on_service_call fails on an offer in a service call only`, () => {
    const segments = transcript([['agent', lines.serviceIntro], ['customer', lines.yes], ['agent', lines.promo]]);
    assert.ok(failed(callInput(lines, segments, { purpose: 'service' }), 'in-trai.no_promotional_content_on_service_call'));
    assert.not.ok(failed(callInput(lines, segments.slice(0, 2), { purpose: 'service' }), 'in-trai.no_promotional_content_on_service_call'));
    assert.is(resultOf(callInput(lines, segments, { purpose: 'promotional' }), 'in-trai.no_promotional_content_on_service_call'), undefined);
  });

  test(`${name}: recording_disclosure fails on a recorded call without it, a warning for lenders and critical for insurers`, () => {
    const undisclosed = callInput(lines, transcript([['agent', lines.introWithoutRecording], ['customer', lines.yes], ['agent', lines.debt]]));
    const lender = resultOf(undisclosed, 'in-dpdp.recording_disclosure', [{ id: 'in-dpdp', parameters: { sector: 'lender' } }])!;
    const insurer = resultOf(undisclosed, 'in-dpdp.recording_disclosure', [{ id: 'in-dpdp', parameters: { sector: 'insurer' } }])!;
    assert.equal([lender.passed, lender.severity, insurer.passed, insurer.severity], [false, 'warning', false, 'critical']);
    assert.not.ok(failed(recoveryCall(lines, lines.debt), 'in-dpdp.recording_disclosure'));
    assert.is(resultOf({ ...undisclosed, recorded: false }, 'in-dpdp.recording_disclosure'), undefined, 'not applicable when not recorded');
  });

  test(`${name}: identity_and_purpose_early fails when the caller is not identified, passes on a proper opening`, () => {
    const anonymous = callInput(lines, transcript([['agent', lines.introWithoutNames], ['customer', lines.yes], ['agent', lines.debt]]), { agentName: null, lenderName: null });
    const result = resultOf(anonymous, 'general.identity_and_purpose_early')!;
    assert.equal([result.passed, result.severity], [false, 'warning']);
    assert.not.ok(failed(recoveryCall(lines, lines.debt), 'general.identity_and_purpose_early'));
    const serviceCall = callInput(lines, transcript([['agent', lines.serviceIntro], ['customer', lines.yes]]), { purpose: 'service' });
    assert.not.ok(failed(serviceCall, 'general.identity_and_purpose_early'));
  });

  test(`${name}: agent_talk_share fails on a monologue over a minute`, () => {
    const monologue = transcript([['agent', `${lines.intro} ${lines.debt} `.repeat(12)], ['customer', lines.yes]]);
    assert.ok(failed(callInput(lines, monologue), 'general.agent_talk_share'));
    const dialogue = transcript(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? (['agent', lines.intro] as const) : (['customer', `${lines.thirdParty} ${lines.customerPolice} ${lines.notOptOut} ${lines.yes}`] as const))));
    assert.not.ok(failed(callInput(lines, dialogue), 'general.agent_talk_share'));
    assert.is(resultOf(callInput(lines, transcript([['agent', lines.intro]])), 'general.agent_talk_share'), undefined, 'too short to judge');
  });

  test(`${name}: dead_air fails on a silence over 10 s between turns, with its times`, () => {
    const silent = callInput(lines, transcript([['agent', lines.intro], 12, ['customer', lines.yes]]));
    const result = resultOf(silent, 'general.dead_air')!;
    assert.is(result.passed, false);
    assert.match(result.findings[0]!.description, /12\.5 s of silence/);
    assert.not.ok(failed(recoveryCall(lines, lines.debt), 'general.dead_air'));
    assert.not.ok(failed(silent, 'general.dead_air', [{ id: 'general', parameters: { max_dead_air_seconds: 15 } }]));
  });
}

test('the result names the check after the dot, and leaves out rules that do not apply', () => {
  const lines = LANGUAGES[0]!;
  const results = evaluatePostCall(callInput(lines, transcript([['agent', lines.serviceIntro], ['customer', lines.yes]]), { purpose: 'service' }), ALL_PACKS);
  assert.equal(
    results.map((result) => [result.rule_id, result.check]),
    [
      ['in-trai.no_promotional_content_on_service_call', 'no_promotional_content_on_service_call'],
      ['in-dpdp.recording_disclosure', 'recording_disclosure'],
      ['general.identity_and_purpose_early', 'identity_and_purpose_early'],
      ['general.dead_air', 'dead_air'],
    ],
  );
});

test('unknown packs are skipped and a language without lexicons has no language rules', () => {
  const lines = LANGUAGES[0]!;
  const input = recoveryCall(lines, lines.threat);
  assert.equal(evaluatePostCall(input, [{ id: 'no-such-pack', parameters: {} }]), []);
  assert.equal(evaluatePostCall({ ...input, language: 'bn-IN' }, ALL_PACKS), []);
});

test('strongly negative agent sentiment is a threat finding even without threat words; the threshold is a parameter', () => {
  const lines = LANGUAGES[0]!;
  const hostile = recoveryCall(lines, lines.debt, { agentSentiment: -0.75 });
  const result = resultOf(hostile, 'in-rbi-recovery.no_threats')!;
  assert.equal(result.findings, [{ description: "the agent's sentiment -0.75 is strongly negative (at or below -0.6)", evidence: null }]);
  assert.not.ok(failed(hostile, 'in-rbi-recovery.no_threats', [{ id: 'in-rbi-recovery', parameters: { threat_sentiment_threshold: -0.9 } }]));
  assert.not.ok(failed(recoveryCall(lines, lines.debt, { agentSentiment: -0.3 }), 'in-rbi-recovery.no_threats'));
});

test('a finding carries the segment as evidence: speaker, start and end times, text', () => {
  const lines = LANGUAGES[1]!;
  const input = recoveryCall(lines, lines.falseClaim);
  const threat = input.segments[4]!;
  const result = resultOf(input, 'in-rbi-recovery.no_false_claims')!;
  assert.equal(result.findings, [
    { description: "false or misleading claim in Hindi: 'पुलिस'", evidence: { speaker: 'agent', start_time: threat.start_time, end_time: threat.end_time, text: lines.falseClaim } },
  ]);
});

test('the agent is found without labels: whoever speaks first in speaker_1/speaker_2 transcripts', () => {
  const lines = LANGUAGES[0]!;
  const segments = transcript([['speaker_1', lines.intro], ['speaker_2', lines.customerPolice], ['speaker_1', lines.debt]]);
  assert.not.ok(failed(callInput(lines, segments), 'in-rbi-recovery.no_false_claims'));
  const agentSays = transcript([['speaker_1', lines.intro], ['speaker_2', lines.yes], ['speaker_1', lines.falseClaim]]);
  assert.ok(failed(callInput(lines, agentSays), 'in-rbi-recovery.no_false_claims'));
});

test('recovery-pack rules apply only to recovery calls', () => {
  const lines = LANGUAGES[0]!;
  assert.is(resultOf(recoveryCall(lines, lines.threat, { purpose: 'service' }), 'in-rbi-recovery.no_threats'), undefined);
});

test('the README\'s loan renewal opening states who calls and why (it was flagged on every call)', () => {
  const en = LANGUAGES.find((lines) => lines.language.startsWith('en'))!;
  const opening = transcript([
    ['agent', 'Namaste Meera, this is Asha from Sahay Finance. This call is recorded. Would you like to renew your loan of 5000 rupees?'],
    ['customer', "Sure, I'm interested, tell me more."],
  ]);
  const input = callInput(en, opening, { purpose: 'service', agentName: 'Asha', lenderName: 'Sahay Finance' });
  assert.not.ok(failed(input, 'general.identity_and_purpose_early'));
});

test.run();
