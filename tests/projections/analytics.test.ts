import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { openReadModelDatabase } from '../../composition.ts';
import { callDecider, callStream, type CallCommand } from '../../domain/call.ts';
import { localDateOf } from '../../domain/shared/time-zone.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobCommand } from '../../domain/transcription-job.ts';
import { analyticsProjection, ANALYTICS_ROLLUP_ZONES } from '../../projections/analytics.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import { testRuntime } from '../support/runtime.ts';

/**
 * The analytics read model: its rollups always equal a GROUP BY over the per-call facts at every level and zone,
 * whatever order the facts of a call arrive in (placed, escalated to an agent, ended with a moved start, analysed),
 * and a rebuild from the events gives identical tables.
 */
const { runtime, dataDir, remove } = testRuntime({ processes: () => [] });

function dump(db: Database): Record<string, unknown[]> {
  const result: Record<string, unknown[]> = {};
  for (const table of analyticsProjection.tables) {
    const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map((column) => `"${column.name}"`);
    result[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${columns.join(', ')}`).all();
  }
  return result;
}

async function generate(): Promise<void> {
  const languages = ['hi-IN', 'ta-IN', 'en-IN'];
  const intents = ['complaint', 'payment_query', null];
  await Promise.all(
    Array.from({ length: 60 }, async (_, index) => {
      const workspaceId = index % 4 === 0 ? 'ws_b' : 'ws_a';
      const callId = `cal_${index}`;
      const context = { workspaceId, actor: 'test', now: runtime.clock.now() };
      const call = (command: CallCommand) => runtime.commands.handle(callDecider, callStream(callId), command, context);
      // Starts around midnight UTC and 18:30 UTC (Kolkata's midnight), so days differ by zone.
      const placedAt = new Date(Date.parse('2026-03-01T18:00:00Z') + index * 47 * 60_000);
      const connected = index % 3 !== 0;
      await call({
        type: 'PlaceCall',
        facts: { suppressed: false, script: index % 5 === 0 ? { version: 1, single_call_enabled: true, variables: [] } : null, agent_found: true },
        data: {
          call_id: callId,
          workspace_id: workspaceId,
          campaign_id: index % 5 === 0 ? null : `cmp_${index % 2}`,
          contact_index: index,
          attempt: 1,
          contact: { phone: `+9198765${String(index).padStart(5, '0')}`, name: 'C' },
          language: languages[index % 3]!,
          script_id: 'scr_1',
          script_version: 1,
          variables: {},
          recording_enabled: false,
          started_at: placedAt.toISOString(),
          agent_id: index % 7 === 0 ? 'agt_manual' : null,
        },
      });
      const at = (seconds: number) => new Date(placedAt.getTime() + seconds * 1000).toISOString();
      await call({
        type: 'RecordCallResult',
        data: {
          answered_at: connected ? at(40) : null,
          turns: [],
          escalation: connected && index % 4 === 1 ? { reason: 'customer_requested_agent', escalated_at: at(50), summary: 's', agent_id: 'agt_escalated' } : null,
          disposition: connected ? (index % 4 === 1 ? 'escalated' : 'interested') : 'not_reachable',
          duration_seconds: connected ? 30 + index : 0,
          ended_at: at(90),
          // The sandbox timeline moves some starts across midnight after the call was placed.
          started_at: index % 6 === 0 ? at(45 * 60) : undefined,
        },
      });
      if (!connected) return;
      const jobId = `job_${index}`;
      const job = (command: TranscriptionJobCommand) => runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(jobId), command, context);
      const transcript = [{ speaker: 'agent', text: 'Namaste', start_time: 0, end_time: 1 }];
      const scored = index % 2 === 0;
      await job({
        type: 'SubmitTranscriptionJob',
        data: {
          job_id: jobId, workspace_id: workspaceId, audio_url: null, transcript, language: 'hi-IN', speakers: 2,
          features: scored ? ['transcription', 'sentiment', 'intent', 'qa_scoring'] : ['transcription', 'sentiment', 'intent'],
          qa_scorecard_id: scored ? `qsc_${index % 3}` : null, qa_scorecard: scored ? { scorecard_id: `qsc_${index % 3}`, version: 1, definition: {} } : null,
          metadata: null, call_id: callId, disposition: 'interested', submitted_at: at(100),
        },
      });
      await job({ type: 'StartTranscriptionJob', data: { attempt: 1, started_at: at(101) } });
      await job({
        type: 'CompleteTranscriptionJob',
        data: {
          attempt: 1,
          completed_at: at(102),
          result: {
            transcript, summary: null, duration_seconds: 30,
            sentiment: { overall: [0.6, 0, -0.6][index % 3]!, by_speaker: {} },
            intent: intents[index % 3]!,
            qa_score: scored ? { overall_score: index, passed: index > 30, pass_threshold: 30, parameter_scores: [{ parameter_name: 'greeting', score: index % 10, max_score: 10, passed: index % 10 > 4 }] } : null,
          },
        },
      });
    }),
  );
  await runtime.projections.catchUp();
}

test.before(async () => {
  await runtime.start();
  await generate().catch((error) => {
    console.error(error);
    throw error;
  });
});
test.after(async () => {
  await runtime.close();
  remove();
});

test('rollups equal a GROUP BY over the per-call facts, at every level and zone', () => {
  const db = runtime.readDb;
  const facts = db.prepare('SELECT * FROM analytics_calls').all() as Array<Record<string, any>>;
  assert.is(facts.length, 60);
  for (const zone of ANALYTICS_ROLLUP_ZONES) {
    const expected = new Map<string, number[]>();
    const expectedIntents = new Map<string, number>();
    for (const row of facts) {
      const day = localDateOf(new Date(row.started_at), zone);
      for (const [campaign, agent, language] of [['*', '*', '*'], [row.campaign_id, '*', '*'], ['*', row.agent_id, '*'], ['*', '*', row.language], [row.campaign_id, row.agent_id, row.language]]) {
        const key = [row.workspace_id, day, campaign, agent, language].join('|');
        const sums = expected.get(key) ?? [0, 0, 0, 0, 0, 0, 0, 0];
        const contribution = [1, row.connected, row.connected ? row.duration_seconds : 0, row.sentiment === 'positive' ? 1 : 0, row.sentiment === 'neutral' ? 1 : 0, row.sentiment === 'negative' ? 1 : 0, row.qa_score ?? 0, row.qa_score === null ? 0 : 1];
        expected.set(key, sums.map((value, index) => value + contribution[index]!));
        if (row.intent !== null) expectedIntents.set(`${key}|${row.intent}`, (expectedIntents.get(`${key}|${row.intent}`) ?? 0) + 1);
      }
    }
    const actual = new Map<string, number[]>();
    for (const row of db.prepare('SELECT * FROM analytics_call_days WHERE timezone = ?').all(zone) as Array<Record<string, any>>) {
      if (row.total_calls === 0) continue;
      actual.set([row.workspace_id, row.day, row.campaign_id, row.agent_id, row.language].join('|'), [row.total_calls, row.connected_calls, row.duration_sum, row.positive, row.neutral, row.negative, row.qa_sum, row.qa_count]);
    }
    assert.equal(Object.fromEntries([...actual].sort()), Object.fromEntries([...expected].sort()), zone);
    const actualIntents = new Map<string, number>();
    for (const row of db.prepare('SELECT * FROM analytics_intent_days WHERE timezone = ? AND calls != 0').all(zone) as Array<Record<string, any>>) {
      actualIntents.set([row.workspace_id, row.day, row.campaign_id, row.agent_id, row.language, row.intent].join('|'), row.calls);
    }
    assert.equal(Object.fromEntries([...actualIntents].sort()), Object.fromEntries([...expectedIntents].sort()), `${zone} intents`);
  }
  const escalated = db.prepare("SELECT agent_id FROM analytics_calls WHERE call_id = 'cal_1'").get() as { agent_id: string };
  assert.is(escalated.agent_id, 'agt_escalated', 'the agent who took the call over handled it');
});

test('QA rollups: one evaluation per scored job, by agent and scorecard', () => {
  const db = runtime.readDb;
  const results = db.prepare('SELECT count(*) AS n, sum(overall_score) AS total FROM analytics_qa').get() as { n: number; total: number };
  for (const zone of ANALYTICS_ROLLUP_ZONES) {
    const all = db.prepare("SELECT sum(evaluated) AS n, sum(score_sum) AS total FROM analytics_qa_days WHERE timezone = ? AND agent_id = '*' AND scorecard_id = '*'").get(zone) as { n: number; total: number };
    assert.equal(all, results, zone);
    const byScorecard = db.prepare("SELECT sum(evaluated) AS n FROM analytics_qa_days WHERE timezone = ? AND agent_id = '*' AND scorecard_id != '*'").get(zone) as { n: number };
    assert.is(byScorecard.n, results.n);
  }
});

test('a rebuild from the events gives identical tables', async () => {
  const incremental = dump(runtime.readDb);
  const rebuiltDb = openReadModelDatabase(join(dataDir, 'analytics-rebuilt.db'));
  const rebuilt = new ProjectionRunner(runtime.store, rebuiltDb, [analyticsProjection]);
  await rebuilt.catchUp();
  assert.equal(dump(rebuiltDb), incremental);
  rebuiltDb.close();
});

test.run();
