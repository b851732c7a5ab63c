import * as fc from 'fast-check';
import { suite } from 'uvu';
import { callDecider, type CallCommand, type CallEscalation, type CallTurn, type FailCall, type RecordCallResult } from '../../../domain/call.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { count, disposition, id, language, name, phone, time, variables, nullable } from './domain-values.ts';

const properties = suite('call decider: properties');

const place: fc.Arbitrary<CallCommand> = fc.record({
  type: fc.constant('PlaceCall' as const),
  facts: fc.record(
    {
      suppressed: fc.boolean(),
      script: nullable(fc.record({ version: fc.constantFrom(1, 2), single_call_enabled: fc.boolean(), variables: fc.array(fc.constantFrom('name', 'amount', 'constructor'), { maxLength: 2 }) })),
      agent_found: fc.boolean(),
      scorecard_found: fc.boolean(),
    },
    { requiredKeys: ['suppressed', 'script'] },
  ),
  data: fc.record(
    {
      call_id: id('cal_1', 'cal_2'),
      workspace_id: fc.constant('ws_1'),
      campaign_id: nullable(fc.constant('cmp_1')),
      contact_index: nullable(fc.nat(3)),
      attempt: nullable(fc.integer({ min: 1, max: 5 })),
      contact: fc.record({ phone, name }),
      language,
      script_id: fc.constant('scr_1'),
      script_version: fc.constant(1),
      variables,
      recording_enabled: fc.boolean(),
      started_at: time,
      agent_id: nullable(fc.constant('agt_1')),
      qa_scorecard_id: nullable(fc.constant('qsc_1')),
    },
    { requiredKeys: ['call_id', 'workspace_id', 'campaign_id', 'contact_index', 'attempt', 'contact', 'language', 'script_id', 'script_version', 'variables', 'recording_enabled', 'started_at'] },
  ),
});
/** A campaign call that passes the rules (its campaign checked it): most sequences start with one. */
const validPlace: fc.Arbitrary<CallCommand> = fc.record({
  type: fc.constant('PlaceCall' as const),
  facts: fc.constant({ suppressed: false, script: null }),
  data: fc.record({
    call_id: fc.constant('cal_1'),
    workspace_id: fc.constant('ws_1'),
    campaign_id: fc.constant('cmp_1'),
    contact_index: fc.constant(0),
    attempt: fc.constant(1),
    contact: fc.constant({ phone: '+919876543210', name: 'Asha' }),
    language: fc.constant('hi-IN'),
    script_id: fc.constant('scr_1'),
    script_version: fc.constant(1),
    variables: fc.constant({}),
    recording_enabled: fc.boolean(),
    started_at: fc.constant('2026-03-01T10:00:00.000Z'),
  }),
});
const turn: fc.Arbitrary<CallTurn> = fc.record({
  speaker: fc.constantFrom('agent', 'customer', 'robot') as fc.Arbitrary<CallTurn['speaker']>,
  text: fc.string({ maxLength: 10 }),
  start_seconds: fc.integer({ min: -1, max: 30 }),
  end_seconds: fc.integer({ min: -1, max: 30 }),
});
const escalation: fc.Arbitrary<CallEscalation> = fc.record(
  { reason: fc.constant('customer_requested_agent' as const), escalated_at: time, summary: fc.string({ maxLength: 10 }), agent_id: nullable(fc.constant('agt_1')), unassigned_reason: nullable(fc.constant('no_available_agent' as const)) },
  { requiredKeys: ['reason', 'escalated_at', 'summary'] },
);
const duration = fc.oneof(count, fc.constantFrom(0, 42, -5));
const fail: fc.Arbitrary<FailCall> = fc.record({
  type: fc.constant('FailCall' as const),
  data: fc.record({ reason: fc.constantFrom('invalid_number', 'carrier_error', 'interrupted', 'number_suppressed') as fc.Arbitrary<FailCall['data']['reason']>, detail: fc.string({ maxLength: 5 }), ended_at: time, started_at: time }, { requiredKeys: ['reason', 'ended_at'] }),
});
const result: fc.Arbitrary<RecordCallResult> = fc.record({
  type: fc.constant('RecordCallResult' as const),
  data: fc.record(
    {
      answered_at: nullable(time),
      turns: fc.array(turn, { maxLength: 2 }),
      escalation: nullable(escalation),
      disposition,
      duration_seconds: duration,
      ended_at: time,
      started_at: time,
      recording: nullable(fc.record({ blob_key: fc.constant('recordings/cal_1.wav'), duration_seconds: fc.nat(60), content_type: fc.constant('audio/wav') })),
    },
    { requiredKeys: ['answered_at', 'turns', 'escalation', 'disposition', 'duration_seconds', 'ended_at'] },
  ),
});
const command: fc.Arbitrary<CallCommand> = fc.oneof(
  place,
  fc.record({ type: fc.constant('RecordCallDialingStarted' as const), facts: fc.record({ suppressed: fc.boolean() }), data: fc.record({ at: time }) }),
  fc.record({ type: fc.constant('RecordCallAnswered' as const), data: fc.record({ answered_at: time }) }),
  fc.record({ type: fc.constant('RecordCallConversation' as const), data: fc.record({ turns: fc.array(turn, { maxLength: 3 }) }) }),
  fc.record({ type: fc.constant('EscalateCall' as const), data: escalation }),
  fc.record({ type: fc.constant('EndCall' as const), data: fc.record({ disposition, duration_seconds: duration, ended_at: time }) }),
  fail,
  result,
  fc.record({ type: fc.constant('HoldCallResult' as const), data: fc.record({ command: fc.oneof(result, fail), due_at: time }) }),
  fc.record({ type: fc.constant('StoreCallRecording' as const), data: fc.record({ blob_key: fc.constant('recordings/cal_1.wav'), duration_seconds: fc.nat(60), content_type: fc.constant('audio/wav') }) }),
  fc.record({ type: fc.constant('AssignCallTranscriptJob' as const), data: fc.record({ job_id: fc.constantFrom('job_1', 'job_2') }) }),
);

const isFinal = (status: string | null) => status === 'completed' || status === 'failed';

properties('random command sequences: only domain refusals, an ended call never goes back to in_progress, its outcome is consistent', () => {
  checkDeciderProperties({
    decider: callDecider,
    command,
    opening: fc.oneof({ weight: 3, arbitrary: validPlace }, { weight: 1, arbitrary: place }),
    maxCommands: 25,
    invariants: [
      { name: 'completed and failed are final', broken: (after, before) => (isFinal(before.status) && after.status !== before.status ? `${before.status} → ${after.status}` : null) },
      { name: 'an ended call has a disposition', broken: (after) => (isFinal(after.status) && after.disposition === null ? 'no disposition' : null) },
      {
        name: 'an unanswered call is not_reachable with duration 0',
        broken: (after) => (isFinal(after.status) && after.answered_at === null && (after.disposition !== 'not_reachable' || after.duration_seconds !== 0) ? `${after.disposition}, ${after.duration_seconds}s` : null),
      },
      { name: 'an escalated call that completed is escalated', broken: (after) => (after.status === 'completed' && after.escalated && after.disposition !== 'escalated' ? String(after.disposition) : null) },
      { name: 'a non-negative whole duration', broken: (after) => (Number.isInteger(after.duration_seconds) && after.duration_seconds >= 0 ? null : String(after.duration_seconds)) },
      { name: 'only an answered, recorded call has a recording', broken: (after) => (after.recording_blob_key !== null && (after.answered_at === null || !after.placed?.recording_enabled) ? 'recording kept' : null) },
    ],
  });
});

properties.run();
