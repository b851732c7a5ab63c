import { z } from 'zod';
import { DISPOSITIONS } from '../../domain/shared/disposition.ts';
import { REPORT_FORMATS, REPORT_TYPES } from '../../domain/report.ts';
import { WEBHOOK_EVENT_NAMES, type WebhookEventName } from '../../domain/webhook.ts';

/**
 * The body of every webhook delivery, as zod schemas: `{event, id, timestamp, data}` with each event's `data`.
 * payloads.ts builds notifications typed by these schemas (a field added to a payload and not here does not
 * compile), tests/processes/webhooks.test.ts parses every delivered body with them (strict objects: an extra or
 * missing field fails), and the OpenAPI document publishes them under `webhooks` (http/contract/webhooks.ts).
 * Plain zod with `.meta({ id })`: the document generator reads `id` as the component name (processes import
 * nothing from http).
 */

const Timestamp = z.string().meta({ format: 'date-time', example: '2026-03-01T10:00:00.000Z' });
const Disposition = z.enum(DISPOSITIONS);

const Contact = z.strictObject({ phone: z.string().meta({ example: '+919876543210' }), name: z.string().meta({ example: 'Asha' }) }).meta({ id: 'WebhookContact' });

const CallCompletedData = z
  .strictObject({
    call_id: z.string().meta({ example: 'cal_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    campaign_id: z.string().nullable().meta({ description: 'Null for a single call (POST /v1/calls).' }),
    contact: Contact,
    status: z.enum(['completed', 'failed']).meta({ description: '`failed`: the carrier could not carry the call.' }),
    disposition: Disposition.meta({ description: 'A failed call has `not_reachable`.' }),
    duration_seconds: z.number().int().min(0).meta({ description: 'From answer to end; 0 when not connected.' }),
    language: z.string().meta({ example: 'hi-IN' }),
    started_at: Timestamp,
    ended_at: Timestamp,
    transcript_job_id: z.string().nullable().meta({ description: 'The transcript job of an answered call; null otherwise.' }),
    recording_url: z.string().nullable().meta({ description: 'Signed URL of the recording, valid 1 hour from the delivery\'s creation; null without one.' }),
  })
  .meta({ id: 'CallCompletedData' });

const CallDispositionSetData = z
  .strictObject({
    call_id: z.string(),
    campaign_id: z.string().nullable(),
    contact: Contact,
    disposition: Disposition,
    set_at: Timestamp,
  })
  .meta({ id: 'CallDispositionSetData' });

const CallEscalatedData = z
  .strictObject({
    call_id: z.string(),
    campaign_id: z.string().nullable(),
    contact: Contact,
    escalation_reason: z.enum(['customer_requested_agent']),
    escalated_at: Timestamp,
    language: z.string(),
    summary: z.string().meta({ description: 'One line on the conversation before the customer asked for a person.' }),
    agent_id: z.string().nullable().meta({ description: "The human agent the call was handed to (available, speaks the call's language, least recently assigned first); null when none was available." }),
    unassigned_reason: z.enum(['no_available_agent']).nullable().meta({ description: 'Why no agent took the call; null when one did.' }),
  })
  .meta({ id: 'CallEscalatedData' });

const campaignProgress = {
  campaign_id: z.string().meta({ example: 'cmp_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  name: z.string(),
  status: z.enum(['scheduled', 'running', 'paused', 'completed', 'stopped']).meta({ description: 'Right after the event.' }),
  total_contacts: z.number().int().min(0),
  calls_made: z.number().int().min(0),
  calls_connected: z.number().int().min(0),
  disposition_summary: z.strictObject(Object.fromEntries(DISPOSITIONS.map((disposition) => [disposition, z.number().int().min(0)])) as Record<(typeof DISPOSITIONS)[number], z.ZodNumber>),
};

const CampaignStartedData = z
  .strictObject({ ...campaignProgress, trigger: z.enum(['manual', 'schedule']).meta({ description: '`manual`: the `start` action; `schedule`: its start_time.' }), started_at: Timestamp })
  .meta({ id: 'CampaignStartedData' });

const CampaignPausedData = z.strictObject({ ...campaignProgress, paused_at: Timestamp }).meta({ id: 'CampaignPausedData' });

const CampaignCompletedData = z
  .strictObject({ ...campaignProgress, reason: z.enum(['all_contacts_final', 'end_time_reached']), completed_at: Timestamp })
  .meta({ id: 'CampaignCompletedData' });

const jobIdentity = {
  job_id: z.string().meta({ example: 'job_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  language: z.string(),
  call_id: z.string().nullable().meta({ description: 'The call an automatic call transcript belongs to; else null.' }),
  metadata: z.record(z.string(), z.unknown()).nullable().meta({ description: 'As submitted with the job.' }),
};

const TranscriptionCompletedData = z
  .strictObject({ ...jobIdentity, status: z.literal('completed'), completed_at: Timestamp })
  .meta({ id: 'TranscriptionCompletedData', description: 'GET /v1/transcription/{job_id} has the results.' });

const TranscriptionFailedData = z
  .strictObject({
    ...jobIdentity,
    status: z.literal('failed'),
    error: z.strictObject({ code: z.string().meta({ example: 'audio_unreachable' }), message: z.string() }),
    failed_at: Timestamp,
  })
  .meta({ id: 'TranscriptionFailedData' });

const ComplianceEvidence = z
  .strictObject({
    speaker: z.string().meta({ example: 'agent' }),
    start_time: z.number().meta({ description: 'Seconds from the call\'s start.' }),
    end_time: z.number(),
    text: z.string(),
  })
  .meta({ id: 'ComplianceEvidence', description: 'The transcript segment that shows the violation.' });

const RulePackRef = z.strictObject({ id: z.string().meta({ example: 'in-rbi-recovery' }), version: z.string().meta({ example: '1.0.0' }) }).meta({ id: 'RulePackRef' });

const ComplianceViolationData = z
  .strictObject({
    check: z.string().meta({ example: 'no_false_claims' }),
    description: z.string(),
    severity: z.enum(['critical', 'warning']),
    rule_pack: RulePackRef,
    evidence: ComplianceEvidence.nullable(),
  })
  .meta({ id: 'ComplianceViolation' });

const ComplianceViolationEventData = z
  .strictObject({
    call_id: z.string().nullable().meta({ description: 'Null for a standalone transcription job (then `job_id` names it).' }),
    job_id: z.string().meta({ description: 'The transcription job whose transcript was checked.' }),
    campaign_id: z.string().nullable(),
    language: z.string(),
    compliance_score: z.number().meta({ description: '0 to 100 (docs/compliance.md).' }),
    violations: z.array(ComplianceViolationData).meta({ description: 'Every violation of the call, critical ones first.' }),
    classifier: z.string().nullable().meta({ description: 'The trained model that judged on top of the rules (`compliance-classifier/1@` and 12 hex digits of its file\'s SHA-256); null: the rules alone.' }),
    evaluated_at: Timestamp,
  })
  .meta({ id: 'ComplianceViolationData', description: 'GET /v1/analytics/compliance?call_id=… has the same result.' });
const reportRun = {
  report_id: z.string().meta({ example: 'rpt_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  run_id: z.string().meta({ description: 'The run: one per report and period (a scheduled report has one per occurrence).' }),
  type: z.enum(REPORT_TYPES),
  format: z.enum(REPORT_FORMATS),
  period: z.strictObject({ from: z.string(), to: z.string() }),
  trigger: z.enum(['request', 'schedule']),
};

const ReportCompletedData = z
  .strictObject({ ...reportRun, status: z.literal('completed'), size_bytes: z.number().int().min(0), completed_at: Timestamp })
  .meta({ id: 'ReportCompletedData', description: 'GET /v1/reports/{report_id} has the data or a signed download_url.' });

const ReportFailedData = z
  .strictObject({ ...reportRun, status: z.literal('failed'), error: z.strictObject({ code: z.string().meta({ example: 'generation_failed' }), message: z.string() }), failed_at: Timestamp })
  .meta({ id: 'ReportFailedData' });

/** Each event's `data`. */
export const WEBHOOK_PAYLOAD_DATA = {
  'call.completed': CallCompletedData,
  'call.disposition_set': CallDispositionSetData,
  'call.escalated': CallEscalatedData,
  'campaign.started': CampaignStartedData,
  'campaign.paused': CampaignPausedData,
  'campaign.completed': CampaignCompletedData,
  'transcription.completed': TranscriptionCompletedData,
  'transcription.failed': TranscriptionFailedData,
  'compliance.violation': ComplianceViolationEventData,
  'report.completed': ReportCompletedData,
  'report.failed': ReportFailedData,
} as const satisfies Record<WebhookEventName, z.ZodType>;

export type WebhookPayloadData<Event extends WebhookEventName> = z.infer<(typeof WEBHOOK_PAYLOAD_DATA)[Event]>;

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventName, string> = {
  'call.completed': 'A call finished: connected and ended, not answered, or failed.',
  'call.disposition_set': 'A disposition was assigned to a completed call (not sent for a failed call).',
  'call.escalated': 'The customer asked for a human agent during the conversation.',
  'campaign.started': 'A campaign began dialing (its start_time, or the `start` action).',
  'campaign.paused': 'A running campaign was paused.',
  'campaign.completed': 'Every contact reached a final state, or the schedule\'s end_time passed.',
  'transcription.completed': 'A transcription job completed.',
  'transcription.failed': 'A transcription job failed for good.',
  'compliance.violation': 'A call (or a transcription job with the `compliance` feature) was evaluated with at least one critical compliance violation.',
  'report.completed': 'A report run completed (a one-time report, or one run of a scheduled report).',
  'report.failed': 'A report run failed after its retries.',
};

/** The body of a delivery of `event`: the envelope around its data. */
function envelopeOf<Event extends WebhookEventName>(event: Event) {
  const id = `${event.split(/[._]/).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}Webhook`;
  return z
    .strictObject({
      event: z.literal(event),
      id: z.string().meta({ description: 'Unique per event, the same on every attempt and every webhook: deduplicate on it.', example: 'evt_4f3k2m9q2x7c4v5b6n8p0r2t1a' }),
      timestamp: Timestamp.meta({ description: 'When the notification was generated.' }),
      data: WEBHOOK_PAYLOAD_DATA[event],
    })
    .meta({ id, description: WEBHOOK_EVENT_DESCRIPTIONS[event] });
}

export const WEBHOOK_ENVELOPES = Object.fromEntries(WEBHOOK_EVENT_NAMES.map((event) => [event, envelopeOf(event)])) as {
  [Event in WebhookEventName]: ReturnType<typeof envelopeOf<Event>>;
};

/** Any delivery body, told apart by `event`. */
export const WebhookDeliveryBodySchema = z.discriminatedUnion('event', Object.values(WEBHOOK_ENVELOPES) as unknown as [ReturnType<typeof envelopeOf>, ...ReturnType<typeof envelopeOf>[]]);
