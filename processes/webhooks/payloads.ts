import { callStream, type CallEscalated, type CallState } from '../../domain/call.ts';
import { campaignDecider, campaignStream, type CampaignEvent, type CampaignState } from '../../domain/campaign.ts';
import type { WebhookEventName } from '../../domain/webhook.ts';
import type { RecordedEvent } from '../../infra/eventstore/port.ts';

/**
 * What each domain event becomes for webhook receivers: the `event` name and the `data` of the envelope
 * (`{event, id, timestamp, data}`). docs/webhooks.md lists every payload; `call.completed` and `call.escalated`
 * carry exactly the spec's fields.
 */
export interface WebhookNotification {
  event: WebhookEventName;
  data: Record<string, unknown>;
}

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
] as const;

/** Which webhook events a domain event type can produce (to skip building payloads nobody subscribed to). */
export const WEBHOOK_EVENTS_BY_SOURCE: Record<(typeof WEBHOOK_SOURCE_EVENT_TYPES)[number], readonly WebhookEventName[]> = {
  CampaignStarted: ['campaign.started'],
  CampaignPaused: ['campaign.paused'],
  CampaignCompleted: ['campaign.completed'],
  CallEnded: ['call.completed', 'call.disposition_set'],
  CallFailed: ['call.completed'],
  CallEscalated: ['call.escalated'],
  TranscriptionJobCompleted: ['transcription.completed'],
  TranscriptionJobFailed: ['transcription.failed'],
};

/** What payloads are built from, besides the event itself. */
export interface PayloadSources {
  /** The call's current state (its stream holds the recording when CallEnded is handled: one append). */
  loadCall(callId: string): Promise<CallState>;
  /** Events of a stream from a revision, a page at a time (to fold a campaign up to the event). */
  readStream(stream: string, fromRevision: number, limit: number): Promise<RecordedEvent[]>;
  /** The signed recording URL (valid 1 hour from now), or null without a recording. */
  recordingUrl(callId: string, blobKey: string | null): string | null;
  /** The transcript job of an answered call (contract: `deterministicId('job', call_id)`). */
  transcriptJobId(callId: string): string;
}

const CAMPAIGN_PAGE = 5_000;

/** The notifications `event` produces (empty for events that produce none, e.g. a CallFailed before placement). */
export async function notificationsFor(event: RecordedEvent, sources: PayloadSources): Promise<WebhookNotification[]> {
  switch (event.type) {
    case 'CampaignStarted':
    case 'CampaignPaused':
    case 'CampaignCompleted':
      return [await campaignNotification(event, sources)];
    case 'CallEnded':
    case 'CallFailed':
      return callEndNotifications(event, sources);
    case 'CallEscalated':
      return callEscalatedNotification(event, sources);
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
    default:
      return [];
  }
}

// ------------------------------------------------------------------------------------------------------ campaigns

/**
 * The campaign as it was right after the event: its stream folded up to the event's revision (not the current
 * state, which may have moved on by the time the webhook is built). Paged, so a 100,000-contact campaign is not
 * read into memory at once.
 */
async function campaignAt(event: RecordedEvent, sources: PayloadSources): Promise<CampaignState> {
  let state = campaignDecider.initialState();
  for (let from = 0; from <= event.revision; from += CAMPAIGN_PAGE) {
    const page = await sources.readStream(event.stream, from, Math.min(CAMPAIGN_PAGE, event.revision + 1 - from));
    if (page.length === 0) break;
    for (const recorded of page) state = campaignDecider.evolve(state, { type: recorded.type, data: recorded.data } as CampaignEvent);
  }
  return state;
}

async function campaignNotification(event: RecordedEvent, sources: PayloadSources): Promise<WebhookNotification> {
  const campaign = await campaignAt(event, sources);
  const progress = {
    campaign_id: campaign.campaign_id || event.stream.slice(campaignStream('').length),
    name: campaign.name,
    status: campaign.status,
    total_contacts: campaign.total_contacts,
    calls_made: campaign.calls_made,
    calls_connected: campaign.calls_connected,
    disposition_summary: { ...campaign.disposition_summary },
  };
  switch (event.type) {
    case 'CampaignStarted':
      return { event: 'campaign.started', data: { ...progress, trigger: event.data.trigger, started_at: event.data.started_at } };
    case 'CampaignPaused':
      return { event: 'campaign.paused', data: { ...progress, paused_at: event.data.paused_at } };
    default:
      return { event: 'campaign.completed', data: { ...progress, reason: event.data.reason, completed_at: event.data.completed_at } };
  }
}

// ---------------------------------------------------------------------------------------------------------- calls

function callIdOf(event: RecordedEvent): string {
  return event.stream.slice(callStream('').length);
}

async function callEndNotifications(event: RecordedEvent, sources: PayloadSources): Promise<WebhookNotification[]> {
  const callId = callIdOf(event);
  const call = await sources.loadCall(callId);
  if (!call.placed) return [];
  const contact = { phone: call.placed.contact.phone, name: call.placed.contact.name };
  const answered = event.type === 'CallEnded' && event.data.answered === true;
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
      transcript_job_id: call.transcript_job_id ?? (answered ? sources.transcriptJobId(callId) : null),
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

async function callEscalatedNotification(event: RecordedEvent, sources: PayloadSources): Promise<WebhookNotification[]> {
  const callId = callIdOf(event);
  const call = await sources.loadCall(callId);
  if (!call.placed) return [];
  const data = event.data as CallEscalated['data'];
  return [
    {
      event: 'call.escalated',
      data: {
        call_id: callId,
        campaign_id: call.placed.campaign_id,
        contact: { phone: call.placed.contact.phone, name: call.placed.contact.name },
        escalation_reason: data.escalation_reason,
        escalated_at: data.escalated_at,
        language: call.placed.language,
        summary: data.summary,
      },
    },
  ];
}
