import type { Database } from 'better-sqlite3';
import { callIdOf, type CallEvent } from '../domain/call.ts';
import type { JobQaScore, TranscriptionJobEvent } from '../domain/transcription-job.ts';
import { sentimentBucketOf, type SentimentBucket } from './sentiment-bucket.ts';
import type { Recorded } from '../infra/eventstore/port.ts';
import { defineProjection } from './projection.ts';
import { RollupBuffer } from './rollup-buffer.ts';
import { rollupLevels, valuesAt } from './rollup-levels.ts';
import { bucketsOf } from './time-buckets.ts';

/**
 * The read side of call and QA analytics (docs/analysis.md, "Analytics read model").
 *
 * - `analytics_calls`: one row of facts per call (workspace, campaign, agent, language, start, connected, duration,
 *   sentiment bucket, intent, QA score), the source of every other table here and of the edges of a range that are
 *   not on a 15-minute boundary.
 * - `analytics_call_rollups`, `analytics_intent_rollups` and `analytics_disposition_rollups`: sums per workspace ×
 *   UTC time bucket (15 minutes, hour,
 *   UTC day: projections/time-buckets.ts) × campaign × agent × language, at the levels of projections/rollup-levels.ts,
 *   so a query in any time zone reads a few buckets per day or week instead of every call. A call's row changes as
 *   its events arrive (placed, escalated, ended, analysed): its old contribution is taken out of the rollups and its
 *   new one put in, so the rollups always equal a GROUP BY over `analytics_calls`.
 * - `analytics_qa` (+ `analytics_qa_parameters`): one QA result per scored job (a call's, or a standalone job's,
 *   whose agent is its `metadata.agent_id`), with `analytics_qa_rollups` and `analytics_qa_parameter_rollups`.
 *   Parameters are keyed by name, so they aggregate across scorecard versions. A parameter row repeats its result's
 *   workspace, agent, scorecard, time and call, so that the lowest-scoring calls of an agent on a parameter (the
 *   coaching report's examples) are the first entries of one index instead of a scan of the range.
 *
 * Rollup changes are gathered over a runner transaction and written once per row (projections/rollup-buffer.ts);
 * scores are summed in thousandths of a point (integers), so a rebuild from the events gives identical tables.
 * Empty campaign and agent are '' in these tables (SQLite primary keys treat NULLs as distinct).
 */
type AnalyticsEvent =
  | Extract<CallEvent, { type: 'CallPlaced' | 'CallEscalated' | 'CallEnded' | 'CallFailed' }>
  | Extract<TranscriptionJobEvent, { type: 'TranscriptionJobSubmitted' | 'TranscriptionJobCompleted' }>;

export interface CallFacts {
  call_id: string;
  workspace_id: string;
  campaign_id: string;
  agent_id: string;
  language: string;
  started_at: string;
  connected: number;
  duration_seconds: number;
  sentiment: SentimentBucket | null;
  intent: string | null;
  qa_score: number | null;
  /** Set when the call ends (CallEnded, CallFailed), as the `calls` read model has it; null while in progress. */
  disposition: string | null;
}

const FACT_COLUMNS = 'call_id, workspace_id, campaign_id, agent_id, language, started_at, connected, duration_seconds, sentiment, intent, qa_score, disposition';

export const analyticsProjection = defineProjection<AnalyticsEvent>({
  name: 'analytics',
  // v2: a `level` column leads each rollup's key after the zone, so a query reads only its level's rows.
  // v3: rollups by UTC time bucket (15 minutes, hour, UTC day) instead of by local day in a few zones, so every zone
  // and date-time bound reads rollups; scores summed in thousandths of a point.
  // v4: dispositions (facts and rollups), a QA result's campaign, and the QA parameter rows' own workspace, agent,
  // scorecard, time and call, for the reports (projections/report-queries.ts), which read per-call rows for them.
  version: 4,
  tables: [
    'analytics_jobs',
    'analytics_calls',
    'analytics_call_rollups',
    'analytics_intent_rollups',
    'analytics_disposition_rollups',
    'analytics_qa',
    'analytics_qa_parameters',
    'analytics_qa_rollups',
    'analytics_qa_parameter_rollups',
  ],
  eventTypes: ['CallPlaced', 'CallEscalated', 'CallEnded', 'CallFailed', 'TranscriptionJobSubmitted', 'TranscriptionJobCompleted'],
  // Never reads a job's transcript: the store need not parse it (Projection.detach).
  detach: { TranscriptionJobSubmitted: 'transcript', TranscriptionJobCompleted: 'transcript' },
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS analytics_jobs (
      job_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      scorecard_id TEXT,
      scorecard_version INTEGER
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS analytics_calls (
      call_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      campaign_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      language TEXT NOT NULL,
      started_at TEXT NOT NULL,
      connected INTEGER NOT NULL,
      duration_seconds INTEGER NOT NULL,
      sentiment TEXT,
      intent TEXT,
      qa_score REAL,
      disposition TEXT
    );
    CREATE INDEX IF NOT EXISTS analytics_calls_by_start ON analytics_calls (workspace_id, started_at);
    CREATE TABLE IF NOT EXISTS analytics_call_rollups (
      workspace_id TEXT NOT NULL, level INTEGER NOT NULL, grain INTEGER NOT NULL, bucket INTEGER NOT NULL,
      campaign_id TEXT NOT NULL, agent_id TEXT NOT NULL, language TEXT NOT NULL,
      total_calls INTEGER NOT NULL, connected_calls INTEGER NOT NULL, duration_sum INTEGER NOT NULL,
      positive INTEGER NOT NULL, neutral INTEGER NOT NULL, negative INTEGER NOT NULL,
      qa_milli INTEGER NOT NULL, qa_count INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, level, grain, bucket, campaign_id, agent_id, language)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS analytics_intent_rollups (
      workspace_id TEXT NOT NULL, level INTEGER NOT NULL, grain INTEGER NOT NULL, bucket INTEGER NOT NULL,
      campaign_id TEXT NOT NULL, agent_id TEXT NOT NULL, language TEXT NOT NULL, intent TEXT NOT NULL,
      calls INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, level, grain, bucket, campaign_id, agent_id, language, intent)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS analytics_disposition_rollups (
      workspace_id TEXT NOT NULL, level INTEGER NOT NULL, grain INTEGER NOT NULL, bucket INTEGER NOT NULL,
      campaign_id TEXT NOT NULL, agent_id TEXT NOT NULL, language TEXT NOT NULL, disposition TEXT NOT NULL,
      calls INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, level, grain, bucket, campaign_id, agent_id, language, disposition)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS analytics_qa (
      source_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      call_id TEXT,
      job_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      scorecard_id TEXT NOT NULL,
      scorecard_version INTEGER NOT NULL,
      at TEXT NOT NULL,
      overall_score REAL NOT NULL,
      passed INTEGER NOT NULL,
      parameter_scores TEXT NOT NULL,
      campaign_id TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS analytics_qa_by_time ON analytics_qa (workspace_id, at);
    -- QA by campaign (report-queries.ts qaGroups) from the index alone.
    CREATE INDEX IF NOT EXISTS analytics_qa_by_campaign ON analytics_qa (workspace_id, at, campaign_id, agent_id, scorecard_id, overall_score, passed);
    CREATE INDEX IF NOT EXISTS analytics_qa_by_call ON analytics_qa (call_id) WHERE call_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS analytics_qa_parameters (
      source_id TEXT NOT NULL, parameter_name TEXT NOT NULL,
      score REAL NOT NULL, max_score REAL NOT NULL, passed INTEGER NOT NULL,
      workspace_id TEXT NOT NULL, agent_id TEXT NOT NULL, scorecard_id TEXT NOT NULL, at TEXT NOT NULL, call_id TEXT,
      PRIMARY KEY (source_id, parameter_name)
    ) WITHOUT ROWID;
    -- An agent's scored calls on a parameter, worst score first (the order of report-queries.ts lowestScoringCalls).
    CREATE INDEX IF NOT EXISTS analytics_qa_parameters_lowest ON analytics_qa_parameters
      (workspace_id, agent_id, parameter_name, (score * 1.0 / max_score), at DESC, source_id) WHERE call_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS analytics_qa_rollups (
      workspace_id TEXT NOT NULL, level INTEGER NOT NULL, grain INTEGER NOT NULL, bucket INTEGER NOT NULL,
      agent_id TEXT NOT NULL, scorecard_id TEXT NOT NULL,
      evaluated INTEGER NOT NULL, score_milli INTEGER NOT NULL, passed INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, level, grain, bucket, agent_id, scorecard_id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS analytics_qa_parameter_rollups (
      workspace_id TEXT NOT NULL, level INTEGER NOT NULL, grain INTEGER NOT NULL, bucket INTEGER NOT NULL,
      agent_id TEXT NOT NULL, scorecard_id TEXT NOT NULL, parameter_name TEXT NOT NULL,
      evaluated INTEGER NOT NULL, score_milli INTEGER NOT NULL, max_score REAL NOT NULL, passed INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, level, grain, bucket, agent_id, scorecard_id, parameter_name)
    ) WITHOUT ROWID;`);
  },
  prepare(db) {
    const find = db.prepare<[string], CallFacts>(`SELECT ${FACT_COLUMNS} FROM analytics_calls WHERE call_id = ?`);
    const save = db.prepare(`INSERT OR REPLACE INTO analytics_calls (${FACT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const saveJob = db.prepare('INSERT OR IGNORE INTO analytics_jobs (job_id, workspace_id, scorecard_id, scorecard_version) VALUES (?, ?, ?, ?)');
    const findJob = db.prepare<[string], { workspace_id: string; scorecard_id: string | null; scorecard_version: number | null }>(
      'SELECT workspace_id, scorecard_id, scorecard_version FROM analytics_jobs WHERE job_id = ?',
    );
    const rollups = callRollupStatements(db);
    const qa = qaStatements(db);

    /** Replaces a call's facts, moving its contribution in the rollups from the old facts to the new. */
    const change = (before: CallFacts | undefined, after: CallFacts) => {
      save.run(
        after.call_id,
        after.workspace_id,
        after.campaign_id,
        after.agent_id,
        after.language,
        after.started_at,
        after.connected,
        after.duration_seconds,
        after.sentiment,
        after.intent,
        after.qa_score,
        after.disposition,
      );
      rollups.change(before, after);
    };

    const apply = (event: Recorded<AnalyticsEvent>) => {
      if (event.type === 'TranscriptionJobSubmitted') {
        // What the completion does not repeat: the workspace and the pinned scorecard.
        const data = event.data;
        saveJob.run(data.job_id, data.workspace_id, data.qa_scorecard?.scorecard_id ?? null, data.qa_scorecard?.version ?? null);
        return;
      }
      if (event.type === 'TranscriptionJobCompleted') {
        const data = event.data;
        const job = findJob.get(data.job_id);
        const callId = data.call_id;
        const before = callId === null ? undefined : find.get(callId);
        if (before) {
          change(before, {
            ...before,
            sentiment: data.sentiment ? sentimentBucketOf(data.sentiment.overall) : null,
            intent: data.intent,
            qa_score: data.qa_score?.overall_score ?? null,
          });
        }
        if (data.qa_score && job) {
          const metadataAgent = data.metadata?.agent_id;
          qa.record({
            source_id: callId ?? data.job_id,
            workspace_id: job.workspace_id,
            call_id: callId,
            job_id: data.job_id,
            agent_id: before ? before.agent_id : typeof metadataAgent === 'string' ? metadataAgent : '',
            campaign_id: before ? before.campaign_id : '',
            at: before ? before.started_at : instantText(data.completed_at),
            score: data.qa_score,
            scorecard: { id: job.scorecard_id ?? '', version: job.scorecard_version ?? 0 },
          });
        }
        return;
      }
      const callId = callIdOf(event.stream);
      const before = find.get(callId);
      switch (event.type) {
        case 'CallPlaced': {
          const data = event.data;
          change(before, {
            call_id: callId,
            workspace_id: data.workspace_id,
            campaign_id: data.campaign_id ?? '',
            agent_id: data.agent_id ?? '',
            language: data.language,
            started_at: instantText(data.started_at),
            connected: 0,
            duration_seconds: 0,
            sentiment: null,
            intent: null,
            qa_score: null,
            disposition: null,
          });
          break;
        }
        case 'CallEscalated':
          if (before && event.data.agent_id) change(before, { ...before, agent_id: event.data.agent_id });
          break;
        case 'CallEnded':
        case 'CallFailed': {
          if (!before) break;
          const connected = event.type === 'CallEnded' && event.data.answered ? 1 : 0;
          change(before, {
            ...before,
            connected,
            duration_seconds: event.data.duration_seconds,
            started_at: event.data.started_at ? instantText(event.data.started_at) : before.started_at,
            disposition: event.data.disposition,
          });
          break;
        }
      }
    };
    return {
      apply,
      flush: () => {
        rollups.flush();
        qa.flush();
      },
      discard: () => {
        rollups.discard();
        qa.discard();
      },
    };
  },
});

/**
 * An instant as `toISOString` writes it (UTC, milliseconds): the facts are compared as text by the range queries,
 * which is only the order of instants in one format.
 */
function instantText(value: string): string {
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? value : instant.toISOString();
}

/** Scores are summed in thousandths of a point: integers add up to the same whatever the order (floats do not). */
export function milli(score: number): number {
  return Math.round(score * 1000);
}

export const CALL_DIMENSIONS = ['campaign_id', 'agent_id', 'language'] as const;
export const CALL_LEVELS = rollupLevels(CALL_DIMENSIONS);
export const QA_DIMENSIONS = ['agent_id', 'scorecard_id'] as const;
export const QA_LEVELS = rollupLevels(QA_DIMENSIONS);

type CallSums = [total: number, connected: number, duration: number, positive: number, neutral: number, negative: number, qaMilli: number, qaCount: number];

function callSums(facts: CallFacts, sign: 1 | -1): CallSums {
  return [
    sign,
    sign * facts.connected,
    sign * (facts.connected ? facts.duration_seconds : 0),
    facts.sentiment === 'positive' ? sign : 0,
    facts.sentiment === 'neutral' ? sign : 0,
    facts.sentiment === 'negative' ? sign : 0,
    facts.qa_score === null ? 0 : sign * milli(facts.qa_score),
    facts.qa_score === null ? 0 : sign,
  ];
}

const CALL_KEY = 'workspace_id = ? AND level = ? AND grain = ? AND bucket = ? AND campaign_id = ? AND agent_id = ? AND language = ?';

function callRollupStatements(db: Database) {
  const sums = new RollupBuffer(
    ['sum', 'sum', 'sum', 'sum', 'sum', 'sum', 'sum', 'sum'],
    db.prepare(
      `INSERT INTO analytics_call_rollups (workspace_id, level, grain, bucket, campaign_id, agent_id, language, total_calls, connected_calls, duration_sum,
         positive, neutral, negative, qa_milli, qa_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET total_calls = total_calls + excluded.total_calls, connected_calls = connected_calls + excluded.connected_calls,
         duration_sum = duration_sum + excluded.duration_sum, positive = positive + excluded.positive, neutral = neutral + excluded.neutral,
         negative = negative + excluded.negative, qa_milli = qa_milli + excluded.qa_milli, qa_count = qa_count + excluded.qa_count`,
    ),
    db.prepare(`DELETE FROM analytics_call_rollups WHERE ${CALL_KEY} AND total_calls = 0`),
  );
  const intents = new RollupBuffer(
    ['sum'],
    db.prepare(
      `INSERT INTO analytics_intent_rollups (workspace_id, level, grain, bucket, campaign_id, agent_id, language, intent, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET calls = calls + excluded.calls`,
    ),
    db.prepare(`DELETE FROM analytics_intent_rollups WHERE ${CALL_KEY} AND intent = ? AND calls = 0`),
  );
  const dispositions = new RollupBuffer(
    ['sum'],
    db.prepare(
      `INSERT INTO analytics_disposition_rollups (workspace_id, level, grain, bucket, campaign_id, agent_id, language, disposition, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET calls = calls + excluded.calls`,
    ),
    db.prepare(`DELETE FROM analytics_disposition_rollups WHERE ${CALL_KEY} AND disposition = ? AND calls = 0`),
  );
  /** Adds a call's contribution (sign 1) or its removal (-1) to every rollup row it counts in: each grain and level. */
  const contribute = (facts: CallFacts, sign: 1 | -1) => {
    const values = callSums(facts, sign);
    for (const { grain, bucket } of bucketsOf(Date.parse(facts.started_at))) {
      for (const [levelIndex, level] of CALL_LEVELS.entries()) {
        const keys = [facts.workspace_id, levelIndex, grain, bucket, ...valuesAt(CALL_DIMENSIONS, level, facts)];
        sums.add(keys, values);
        if (facts.intent !== null) intents.add([...keys, facts.intent], [sign]);
        if (facts.disposition !== null) dispositions.add([...keys, facts.disposition], [sign]);
      }
    }
  };
  return {
    /** Moves a call's contribution from its old facts to its new ones (written at the transaction's end). */
    change(before: CallFacts | undefined, after: CallFacts) {
      if (before) contribute(before, -1);
      contribute(after, 1);
    },
    flush() {
      sums.flush();
      intents.flush();
      dispositions.flush();
    },
    discard() {
      sums.discard();
      intents.discard();
      dispositions.discard();
    },
  };
}

interface QaRecord {
  source_id: string;
  workspace_id: string;
  call_id: string | null;
  job_id: string;
  agent_id: string;
  /** The scored call's campaign; '' for a single call or a standalone job. */
  campaign_id: string;
  at: string;
  score: JobQaScore;
  scorecard: { id: string; version: number };
}

function qaStatements(db: Database) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO analytics_qa (source_id, workspace_id, call_id, job_id, agent_id, scorecard_id, scorecard_version, at, overall_score, passed, parameter_scores, campaign_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertParameter = db.prepare(
    `INSERT OR REPLACE INTO analytics_qa_parameters (source_id, parameter_name, score, max_score, passed, workspace_id, agent_id, scorecard_id, at, call_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const totals = new RollupBuffer(
    ['sum', 'sum', 'sum'],
    db.prepare(
      `INSERT INTO analytics_qa_rollups (workspace_id, level, grain, bucket, agent_id, scorecard_id, evaluated, score_milli, passed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET evaluated = evaluated + excluded.evaluated, score_milli = score_milli + excluded.score_milli, passed = passed + excluded.passed`,
    ),
  );
  const parameters = new RollupBuffer(
    ['sum', 'sum', 'max', 'sum'],
    db.prepare(
      `INSERT INTO analytics_qa_parameter_rollups (workspace_id, level, grain, bucket, agent_id, scorecard_id, parameter_name, evaluated, score_milli, max_score, passed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET evaluated = evaluated + excluded.evaluated, score_milli = score_milli + excluded.score_milli,
         max_score = max(max_score, excluded.max_score), passed = passed + excluded.passed`,
    ),
  );
  return {
    /** A job completes once, so a QA result is recorded once (a replayed event changes nothing). */
    record(qa: QaRecord) {
      const { score } = qa;
      const inserted = insert.run(
        qa.source_id,
        qa.workspace_id,
        qa.call_id,
        qa.job_id,
        qa.agent_id,
        qa.scorecard.id,
        qa.scorecard.version,
        qa.at,
        score.overall_score,
        score.passed ? 1 : 0,
        JSON.stringify(score.parameter_scores),
        qa.campaign_id,
      );
      if (inserted.changes === 0) return;
      for (const parameter of score.parameter_scores) {
        insertParameter.run(qa.source_id, parameter.parameter_name, parameter.score, parameter.max_score, parameter.passed ? 1 : 0, qa.workspace_id, qa.agent_id, qa.scorecard.id, qa.at, qa.call_id);
      }
      for (const { grain, bucket } of bucketsOf(Date.parse(qa.at))) {
        for (const [levelIndex, level] of QA_LEVELS.entries()) {
          const [agent, scorecard] = valuesAt(QA_DIMENSIONS, level, { agent_id: qa.agent_id, scorecard_id: qa.scorecard.id });
          const keys = [qa.workspace_id, levelIndex, grain, bucket, agent!, scorecard!];
          totals.add(keys, [1, milli(score.overall_score), score.passed ? 1 : 0]);
          for (const parameter of score.parameter_scores) {
            parameters.add([...keys, parameter.parameter_name], [1, milli(parameter.score), parameter.max_score, parameter.passed ? 1 : 0]);
          }
        }
      }
    },
    flush() {
      totals.flush();
      parameters.flush();
    },
    discard() {
      totals.discard();
      parameters.discard();
    },
  };
}
