import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventStore } from '../../infra/eventstore/port.ts';
import { createSqliteEventStore } from '../../infra/eventstore/sqlite.ts';
import { upcast } from '../../domain/upcasters.ts';
import { allProjections, readModelProjections } from '../../projections/index.ts';
import type { Projection } from '../../projections/projection.ts';
import { detachedFields, ProjectionRunner } from '../../projections/runner.ts';
import { unfinishedTranscriptionJobs } from '../../projections/transcription-jobs.ts';
import { metadata } from '../infra/eventstore/contract.ts';

const TRANSCRIPT = [
  { speaker: 'agent', text: 'Your EMI of ₹4,500 is due on "5 March".', start_time: 0, end_time: 2.5 },
  { speaker: 'customer', text: 'I will pay {tomorrow}, \\ sorry.', start_time: 2.5, end_time: 4 },
];
const FEATURES = ['transcription', 'summary', 'sentiment', 'intent'];

function submitted(jobId: string, transcript: unknown[] | null) {
  return {
    type: 'TranscriptionJobSubmitted',
    data: { job_id: jobId, workspace_id: 'ws_a', audio_url: transcript ? null : 'https://example.com/a.wav', transcript, language: 'en-IN', speakers: 2, features: FEATURES, qa_scorecard_id: null, qa_scorecard: null, metadata: { ticket: 'T-1' }, call_id: null, disposition: null, submitted_at: '2026-11-27T10:00:00.000Z' },
    metadata: metadata({ workspace_id: 'ws_a' }),
  };
}

function completed(jobId: string) {
  return {
    type: 'TranscriptionJobCompleted',
    data: { job_id: jobId, language: 'en-IN', call_id: null, metadata: { ticket: 'T-1' }, features: FEATURES, transcript: TRANSCRIPT.map((segment) => ({ ...segment, confidence: 0.9 })), summary: 'The customer will pay tomorrow.', sentiment: { overall: 'neutral', score: 0 }, intent: 'payment_promise', qa_score: null, duration_seconds: 4, analyzer: { name: 'lexicon', model: null, fallback_reason: null, fallback_detail: null }, completed_at: '2026-11-27T10:00:05.000Z' },
    metadata: metadata({ workspace_id: 'ws_a' }),
  };
}

/** The store as an adapter that never detaches (EventStoreDB's) shows it to readers. */
function withoutDetaching(store: EventStore): EventStore {
  return { ...store, readAll: ({ detach: _detach, ...options }) => store.readAll(options) };
}

test('the lane detaches a field only when every projection handling the type takes it as text', () => {
  const projection = (name: string, eventTypes: string[], detach?: Record<string, string>) => ({ name, eventTypes, detach }) as unknown as Projection;
  const lane = detachedFields([
    projection('a', ['Big', 'Mixed', 'Disputed', 'Lonely'], { Big: 'body', Mixed: 'body', Disputed: 'body', Lonely: 'body' }),
    projection('b', ['Big', 'Mixed', 'Disputed'], { Big: 'body', Disputed: 'other' }),
  ]);
  assert.equal([...lane].sort(), [['Big', 'body'], ['Lonely', 'body']]);
  assert.equal(detachedFields(readModelProjections).get('TranscriptionJobCompleted'), 'transcript', "read.db's lane detaches a job's transcript");
});

test('no upcaster changes an event type whose field a lane detaches (a detached field passes them by)', () => {
  for (const lane of [readModelProjections, allProjections]) {
    for (const type of detachedFields(lane).keys()) {
      const recorded = { type, data: {}, metadata: { schema_version: 0 } };
      assert.is(upcast(recorded), recorded, `${type} has an upcaster: stop detaching its field, or make the upcaster leave that field alone`);
    }
  }
});

test('job documents built from detached transcripts equal those built from parsed ones, transcript and order of fields included', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'jobs-detached-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  try {
    await store.append('transcription_job-job_1', [submitted('job_1', TRANSCRIPT)], { expectedRevision: 'no_stream' });
    await store.append('transcription_job-job_2', [submitted('job_2', null)], { expectedRevision: 'no_stream' });
    await store.append('transcription_job-job_3', [submitted('job_3', TRANSCRIPT)], { expectedRevision: 'no_stream' });
    await store.append('transcription_job-job_1', [{ type: 'TranscriptionJobStarted', data: { job_id: 'job_1', attempt: 1, resumed_after_interruption: false, started_at: '2026-11-27T10:00:01.000Z' }, metadata: metadata() }, completed('job_1')], { expectedRevision: 0 });

    const build = async (source: EventStore) => {
      const db = new Database(':memory:');
      await new ProjectionRunner(source, db, readModelProjections).catchUp();
      return db;
    };
    const detached = await build(store);
    const parsed = await build(withoutDetaching(store));
    const rows = (db: Database.Database) => db.prepare('SELECT * FROM transcription_jobs ORDER BY job_id').all();
    assert.equal(rows(detached), rows(parsed));

    const { document } = detached.prepare("SELECT document FROM transcription_jobs WHERE job_id = 'job_1'").get() as { document: string };
    const job = JSON.parse(document);
    assert.equal(Object.keys(job), ['job_id', 'status', 'language', 'features', 'call_id', 'transcript', 'duration_seconds', 'summary', 'sentiment', 'intent', 'analyzer', 'metadata', 'created_at', 'completed_at']);
    assert.equal(job.transcript, completed('job_1').data.transcript);
    assert.is(job.summary, 'The customer will pay tomorrow.');
    const { list_item } = detached.prepare("SELECT list_item FROM transcription_jobs WHERE job_id = 'job_1'").get() as { list_item: string };
    assert.not.ok('transcript' in JSON.parse(list_item), 'a list shows no transcript');
    // Pending jobs know whether a transcript was submitted (no download, no recognition) without keeping it.
    assert.equal(unfinishedTranscriptionJobs(detached).map((row) => [row.job_id, row.has_transcript]), [['job_2', false], ['job_3', true]]);
    assert.equal(unfinishedTranscriptionJobs(parsed).map((row) => [row.job_id, row.has_transcript]), [['job_2', false], ['job_3', true]]);
    detached.close();
    parsed.close();
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();
