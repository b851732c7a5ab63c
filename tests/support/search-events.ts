import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { CallEvent } from '../../domain/call.ts';
import type { TranscriptionJobEvent, TranscriptSegment } from '../../domain/transcription-job.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import type { Projection } from '../../projections/projection.ts';
import { transcriptSearchProjection } from '../../projections/transcript-search.ts';

/**
 * Recorded events for the transcript search projection, built by hand (given events → rows): a standalone job, or
 * a call with its transcript job. Used by the projection's tests and by bench/search.ts.
 */
type SearchEvent = Recorded<CallEvent | TranscriptionJobEvent>;

let position = 0;

function recorded<Event extends SearchEvent>(stream: string, type: Event['type'], data: Event['data'], workspaceId: string): Event {
  position++;
  return {
    id: `evt-${position}`,
    stream,
    revision: 0,
    position,
    type,
    data,
    metadata: { workspace_id: workspaceId, actor: 'test', correlation_id: `c-${position}`, causation_id: null, occurred_at: '2026-03-01T10:00:00.000Z', schema_version: 1 },
  } as Event;
}

export interface TranscriptSpec {
  workspaceId: string;
  jobId: string;
  language?: string;
  /** For a call transcript: the call, its campaign and its start. */
  call?: { callId: string; campaignId: string | null; startedAt: string; timelineStartedAt?: string };
  submittedAt?: string;
  segments: TranscriptSegment[];
}

/** The events that put one transcript into the index, in the order the service appends them. */
export function transcriptEvents(spec: TranscriptSpec): SearchEvent[] {
  const language = spec.language ?? 'en-IN';
  const events: SearchEvent[] = [];
  const callId = spec.call?.callId ?? null;
  if (spec.call) {
    const call = spec.call;
    events.push(
      recorded(`call-${call.callId}`, 'CallPlaced', {
        call_id: call.callId, workspace_id: spec.workspaceId, campaign_id: call.campaignId, contact_index: null, attempt: null,
        contact: { phone: '+919876500003', name: 'Asha' }, language: language as 'en-IN', script_id: 'scr_1', script_version: 1,
        variables: {}, recording_enabled: false, started_at: call.startedAt,
      }, spec.workspaceId),
      recorded(`call-${call.callId}`, 'CallEnded', {
        status: 'completed', answered: true, disposition: 'interested', duration_seconds: 60, ended_at: call.startedAt,
        ...(call.timelineStartedAt ? { started_at: call.timelineStartedAt } : {}),
      }, spec.workspaceId),
    );
  }
  const submittedAt = spec.submittedAt ?? spec.call?.startedAt ?? '2026-03-01T10:00:00.000Z';
  events.push(
    recorded(`transcription-${spec.jobId}`, 'TranscriptionJobSubmitted', {
      job_id: spec.jobId, workspace_id: spec.workspaceId, audio_url: null, transcript: spec.segments, language, speakers: 2,
      features: ['transcription'], qa_scorecard_id: null, qa_scorecard: null, metadata: null, call_id: callId, disposition: null, submitted_at: submittedAt,
    }, spec.workspaceId),
    recorded(`transcription-${spec.jobId}`, 'TranscriptionJobCompleted', {
      job_id: spec.jobId, language, call_id: callId, metadata: null, transcript: spec.segments, summary: null, sentiment: null, intent: null,
      qa_score: null, duration_seconds: 60, features: ['transcription'], completed_at: submittedAt,
    }, spec.workspaceId),
  );
  return events;
}

/** An in-memory database holding only the search index, and a function that applies events to it. */
export function searchIndex(path = ':memory:'): { db: Database; apply(events: SearchEvent[]): void } {
  const db = new BetterSqlite3(path);
  const projection: Projection = transcriptSearchProjection;
  projection.migrate(db);
  // The runner's own narrowing (projection.ts): it only hands a projection the event types it lists.
  const applyOne = projection.prepare(db) as (event: SearchEvent) => void;
  const handled = new Set<string>(projection.eventTypes);
  return {
    db,
    apply: (events) => {
      db.transaction(() => {
        for (const event of events) if (handled.has(event.type)) applyOne(event);
      })();
    },
  };
}
