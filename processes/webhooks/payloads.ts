import { callIdOf, callTranscriptJobId, type CallEvent, type CallState } from '../../domain/call.ts';
import { campaignIdOf, type CampaignEvent, type CampaignProgress, type CampaignStatus } from '../../domain/campaign.ts';
import type { ComplianceResultEvent } from '../../domain/compliance/result.ts';
import type { TranscriptionJobEvent } from '../../domain/transcription-job.ts';
import type { ReportEvent, ReportState } from '../../domain/report.ts';
import type { WebhookEventName } from '../../domain/webhook.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import type { WebhookPayloadData } from './payload-schemas.ts';

/**
 * What each domain event becomes for webhook receivers: the `event` name and the `data` of the envelope
 * (`{event, id, timestamp, data}`), typed by payload-schemas.ts. docs/webhooks.md lists every payload; `call.completed` and `call.escalated`
 * carry exactly the spec's fields.
 */
export type WebhookNotification = { [Event in WebhookEventName]: { event: Event; data: WebhookPayloadData<Event> } }[WebhookEventName];

/** Domain events that produce webhook notifications. */
export const WEBHOOK_SOURCE_EVENT_TYPES = [
  'CampaignStarted',
  'CampaignPaused',
  'CampaignCompleted',
  'CallEnded',
  'CallFailed',
  'CallEscalated',
  'TranscriptionJobCompleted',
  'TranscriptionJobFailed',
  'ComplianceEvaluated',
  'ReportRunCompleted',
  'ReportRunFailed',
] as const;

type SourceEventType = (typeof WEBHOOK_SOURCE_EVENT_TYPES)[number];

export type WebhookSourceEvent = Extract<CampaignEvent | CallEvent | TranscriptionJobEvent | ComplianceResultEvent | ReportEvent, { type: SourceEventType }>;

/** Which webhook events a domain event type can produce (to skip building payloads nobody subscribed to). */
export const WEBHOOK_EVENTS_BY_SOURCE: Record<SourceEventType, readonly WebhookEventName[]> = {
  CampaignStarted: ['campaign.started'],
  CampaignPaused: ['campaign.paused'],
  CampaignCompleted: ['campaign.completed'],
  CallEnded: ['call.completed', 'call.disposition_set'],
  CallFailed: ['call.completed'],
  CallEscalated: ['call.escalated'],
  TranscriptionJobCompleted: ['transcription.completed'],
  TranscriptionJobFailed: ['transcription.failed'],
  ComplianceEvaluated: ['compliance.violation'],
  ReportRunCompleted: ['report.completed'],
  ReportRunFailed: ['report.failed'],
};

/** A campaign as it was right after one of its lifecycle events (the campaigns read model keeps these snapshots). */
export interface CampaignSnapshot extends CampaignProgress {
  name: string;
  status: CampaignStatus;
}

/** What payloads are built from, besides the event itself. */
export interface PayloadSources {
  /** The call's current state (its stream holds the recording when CallEnded is handled: one append). */
  loadCall(callId: string): Promise<CallState>;
  /** The campaign right after the given lifecycle event (null: not in the read model, e.g. the campaign is unknown). */
  campaignAfter(event: Recorded<Extract<CampaignEvent, { type: 'CampaignStarted' | 'CampaignPaused' | 'CampaignCompleted' }>>): Promise<CampaignSnapshot | null>;
  /** The signed recording URL (valid 1 hour from now), or null without a recording. */
  recordingUrl(callId: string, blobKey: string | null): string | null;
  /** The report as requested, and the run's period and trigger (from the report's stream). */
  loadReport(reportId: string): Promise<ReportState>;
}

/** The notifications `event` produces (empty for events that produce none, e.g. a CallFailed before placement). */
export async function notificationsFor(event: Recorded<WebhookSourceEvent>, sources: PayloadSources): Promise<WebhookNotification[]> {
  switch (event.type) {
    case 'CampaignStarted':
    case 'CampaignPaused':
    case 'CampaignCompleted':
      return campaignNotification(event, sources);
    case 'CallEnded':
    case 'CallFailed':
      return callEndNotifications(event, sources);
    case 'CallEscalated':
      return callEscalatedNotification(event, sources);
    case 'ReportRunCompleted':
    case 'ReportRunFailed':
      return reportNotification(event, sources);
    case 'TranscriptionJobCompleted':
      return [
        {
          event: 'transcription.completed',
          data: {
            job_id: event.data.job_id,
            status: 'completed',
            language: event.data.language,
            call_id: event.data.call_id ?? null,
            metadata: event.data.metadata ?? null,
            completed_at: event.data.completed_at,
          },
        },
      ];
    case 'ComplianceEvaluated': {
      const data = event.data;
      // Only an evaluation with a critical violation notifies; warnings are for the dashboard and the aggregate.
      if (!data.violations.some((violation) => violation.severity === 'critical')) return [];
      const ordered = [...data.violations].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'critical' ? -1 : 1));
      return [
        {
          event: 'compliance.violation',
          data: {
            call_id: data.call_id,
            job_id: data.job_id,
            campaign_id: data.campaign_id,
            language: data.language,
            compliance_score: data.compliance_score,
            violations: ordered.map(({ check, description, severity, rule_pack, evidence }) => ({ check, description, severity, rule_pack, evidence })),
            classifier: data.classifier ?? null,
            evaluated_at: data.evaluated_at,
          },
        },
      ];
    }
    case 'TranscriptionJobFailed':
      return [
        {
          event: 'transcription.failed',
          data: {
            job_id: event.data.job_id,
            status: 'failed',
            language: event.data.language,
            call_id: event.data.call_id ?? null,
            metadata: event.data.metadata ?? null,
            error: event.data.error,
            failed_at: event.data.failed_at,
          },
        },
      ];
  }
}

// -------------------------------------------------------------------------------------------------------- reports

async function reportNotification(event: Recorded<Extract<ReportEvent, { type: 'ReportRunCompleted' | 'ReportRunFailed' }>>, sources: PayloadSources): Promise<WebhookNotification[]> {
  const state = await sources.loadReport(event.data.report_id);
  const report = state.report;
  const run = state.runs[event.data.run_id];
  if (!report || !run) return [];
  const identity = { report_id: report.report_id, run_id: event.data.run_id, type: report.type, format: report.format, period: run.period, trigger: run.trigger };
  if (event.type === 'ReportRunCompleted') {
    return [{ event: 'report.completed', data: { ...identity, status: 'completed', size_bytes: event.data.output.size_bytes, completed_at: event.data.completed_at } }];
  }
  return [{ event: 'report.failed', data: { ...identity, status: 'failed', error: event.data.error, failed_at: event.data.failed_at } }];
}

// ------------------------------------------------------------------------------------------------------ campaigns

async function campaignNotification(
  event: Recorded<Extract<CampaignEvent, { type: 'CampaignStarted' | 'CampaignPaused' | 'CampaignCompleted' }>>,
  sources: PayloadSources,
): Promise<WebhookNotification[]> {
  const campaign = await sources.campaignAfter(event);
  if (campaign === null) return [];
  const progress = {
    campaign_id: campaignIdOf(event.stream),
    name: campaign.name,
    status: campaign.status,
    total_contacts: campaign.total_contacts,
    calls_made: campaign.calls_made,
    calls_connected: campaign.calls_connected,
    disposition_summary: { ...campaign.disposition_summary },
  };
  switch (event.type) {
    case 'CampaignStarted':
      return [{ event: 'campaign.started', data: { ...progress, trigger: event.data.trigger, started_at: event.data.started_at } }];
    case 'CampaignPaused':
      return [{ event: 'campaign.paused', data: { ...progress, paused_at: event.data.paused_at } }];
    case 'CampaignCompleted':
      return [{ event: 'campaign.completed', data: { ...progress, reason: event.data.reason, completed_at: event.data.completed_at } }];
  }
}

// ---------------------------------------------------------------------------------------------------------- calls

async function callEndNotifications(event: Recorded<Extract<CallEvent, { type: 'CallEnded' | 'CallFailed' }>>, sources: PayloadSources): Promise<WebhookNotification[]> {
  const callId = callIdOf(event.stream);
  const call = await sources.loadCall(callId);
  if (!call.placed) return [];
  const contact = { phone: call.placed.contact.phone, name: call.placed.contact.name };
  const answered = event.type === 'CallEnded' && event.data.answered;
  const completed: WebhookNotification = {
    event: 'call.completed',
    data: {
      call_id: callId,
      campaign_id: call.placed.campaign_id,
      contact,
      status: event.data.status,
      disposition: event.data.disposition,
      duration_seconds: event.data.duration_seconds,
      language: call.placed.language,
      // The call's own timeline start when the end carries one (the sandbox; docs/calling.md), else when it was placed.
      started_at: event.data.started_at ?? call.placed.started_at,
      ended_at: event.data.ended_at,
      transcript_job_id: call.transcript_job_id ?? (answered ? callTranscriptJobId(callId) : null),
      recording_url: sources.recordingUrl(callId, call.recording_blob_key),
    },
  };
  // The spec ties call.disposition_set to completed calls; a failed call (the carrier could not carry it) gets none.
  if (event.type !== 'CallEnded') return [completed];
  return [
    completed,
    {
      event: 'call.disposition_set',
      data: { call_id: callId, campaign_id: call.placed.campaign_id, contact, disposition: event.data.disposition, set_at: event.data.ended_at },
    },
  ];
}

async function callEscalatedNotification(event: Recorded<Extract<CallEvent, { type: 'CallEscalated' }>>, sources: PayloadSources): Promise<WebhookNotification[]> {
  const callId = callIdOf(event.stream);
  const call = await sources.loadCall(callId);
  if (!call.placed) return [];
  return [
    {
      event: 'call.escalated',
      data: {
        call_id: callId,
        campaign_id: call.placed.campaign_id,
        contact: { phone: call.placed.contact.phone, name: call.placed.contact.name },
        escalation_reason: event.data.escalation_reason,
        escalated_at: event.data.escalated_at,
        language: call.placed.language,
        summary: event.data.summary,
        agent_id: event.data.agent_id,
        unassigned_reason: event.data.unassigned_reason,
      },
    },
  ];
}
