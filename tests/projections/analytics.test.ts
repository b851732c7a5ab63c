import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { openReadModelDatabase } from '../../composition.ts';
import { callDecider, callStream, type CallCommand } from '../../domain/call.ts';
import { isoWeekStart, localDateOf } from '../../domain/shared/time-zone.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobCommand } from '../../domain/transcription-job.ts';
import { analyticsProjection, CALL_DIMENSIONS, CALL_LEVELS, milli } from '../../projections/analytics.ts';
import { callAnalytics, type CallAnalyticsFilter, type CallAnalyticsGroupBy, type CallTotals } from '../../projections/call-analytics.ts';
import { qaSums } from '../../projections/qa-analytics.ts';
import { valuesAt } from '../../projections/rollup-levels.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import { bucketsOf } from '../../projections/time-buckets.ts';
import { parseAnalyticsRange } from '../../http/analytics-range.ts';
import { testRuntime } from '../support/runtime.ts';

/**
 * The analytics read model: its rollups always equal a GROUP BY over the per-call facts at every level and time
 * grain, whatever order the facts of a call arrive in (placed, escalated to an agent, ended with a moved start,
 * analysed); a rebuild from the events gives identical tables, however the events are cut into transactions; and
 * a query in any zone, with dates or date-times, equals a sum over the calls it covers.
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
  // Calls around Monrovia's midnights of 1971 (UTC-00:44:30): 23:55:30 on the 1st, then three on the 2nd.
  await Promise.all(
    ['1971-03-02T00:40:00.000Z', '1971-03-02T00:44:40.000Z', '1971-03-02T12:00:00.000Z', '1971-03-03T00:44:00.000Z'].map(async (startedAt, index) => {
      const context = { workspaceId: 'ws_1971', actor: 'test', now: runtime.clock.now() };
      await runtime.commands.handle(callDecider, callStream(`cal_1971_${index}`), {
        type: 'PlaceCall',
        facts: { suppressed: false, script: { version: 1, single_call_enabled: true, variables: [] }, agent_found: true },
        data: {
          call_id: `cal_1971_${index}`, workspace_id: 'ws_1971', campaign_id: null, contact_index: index, attempt: 1,
          contact: { phone: `+9198766${String(index).padStart(5, '0')}`, name: 'C' }, language: 'en-IN', script_id: 'scr_1', script_version: 1,
          variables: {}, recording_enabled: false, started_at: startedAt, agent_id: null,
        },
      }, context);
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

test('rollups equal a GROUP BY over the per-call facts, at every level and time grain', () => {
  const db = runtime.readDb;
  const facts = db.prepare('SELECT * FROM analytics_calls').all() as Array<Record<string, any>>;
  assert.is(facts.length, 64);
  const expected = new Map<string, number[]>();
  const expectedIntents = new Map<string, number>();
  const expectedDispositions = new Map<string, number>();
  for (const row of facts) {
    for (const { grain, bucket } of bucketsOf(Date.parse(row.started_at))) {
      for (const [level, dimensions] of CALL_LEVELS.entries()) {
        const key = [row.workspace_id, level, grain, bucket, ...valuesAt(CALL_DIMENSIONS, dimensions, row as any)].join('|');
        const sums = expected.get(key) ?? [0, 0, 0, 0, 0, 0, 0, 0];
        const contribution = [1, row.connected, row.connected ? row.duration_seconds : 0, row.sentiment === 'positive' ? 1 : 0, row.sentiment === 'neutral' ? 1 : 0, row.sentiment === 'negative' ? 1 : 0, row.qa_score === null ? 0 : milli(row.qa_score), row.qa_score === null ? 0 : 1];
        expected.set(key, sums.map((value, index) => value + contribution[index]!));
        if (row.intent !== null) expectedIntents.set(`${key}|${row.intent}`, (expectedIntents.get(`${key}|${row.intent}`) ?? 0) + 1);
        if (row.disposition !== null) expectedDispositions.set(`${key}|${row.disposition}`, (expectedDispositions.get(`${key}|${row.disposition}`) ?? 0) + 1);
      }
    }
  }
  const actual = new Map<string, number[]>();
  for (const row of db.prepare('SELECT * FROM analytics_call_rollups').all() as Array<Record<string, any>>) {
    actual.set([row.workspace_id, row.level, row.grain, row.bucket, row.campaign_id, row.agent_id, row.language].join('|'), [row.total_calls, row.connected_calls, row.duration_sum, row.positive, row.neutral, row.negative, row.qa_milli, row.qa_count]);
  }
  assert.equal(Object.fromEntries([...actual].sort()), Object.fromEntries([...expected].sort()), 'no row without calls (a moved call leaves none behind)');
  const actualIntents = new Map<string, number>();
  for (const row of db.prepare('SELECT * FROM analytics_intent_rollups').all() as Array<Record<string, any>>) {
    actualIntents.set([row.workspace_id, row.level, row.grain, row.bucket, row.campaign_id, row.agent_id, row.language, row.intent].join('|'), row.calls);
  }
  assert.equal(Object.fromEntries([...actualIntents].sort()), Object.fromEntries([...expectedIntents].sort()), 'intents');
  const actualDispositions = new Map<string, number>();
  for (const row of db.prepare('SELECT * FROM analytics_disposition_rollups').all() as Array<Record<string, any>>) {
    actualDispositions.set([row.workspace_id, row.level, row.grain, row.bucket, row.campaign_id, row.agent_id, row.language, row.disposition].join('|'), row.calls);
  }
  assert.equal(Object.fromEntries([...actualDispositions].sort()), Object.fromEntries([...expectedDispositions].sort()), 'dispositions');
  assert.ok(expectedDispositions.size > 0, 'ended calls have dispositions');
  // The facts' disposition is the calls read model's (what the reports counted from before the rollups).
  const mismatched = db.prepare('SELECT count(*) AS n FROM analytics_calls a JOIN calls c ON c.call_id = a.call_id WHERE a.disposition IS NOT c.disposition OR a.started_at IS NOT c.started_at').get() as { n: number };
  assert.is(mismatched.n, 0);
  const escalated = db.prepare("SELECT agent_id FROM analytics_calls WHERE call_id = 'cal_1'").get() as { agent_id: string };
  assert.is(escalated.agent_id, 'agt_escalated', 'the agent who took the call over handled it');
});

test('QA rollups: one evaluation per scored job, by agent and scorecard, at every grain', () => {
  const db = runtime.readDb;
  const results = db.prepare('SELECT count(*) AS n, sum(round(overall_score * 1000)) AS total FROM analytics_qa').get() as { n: number; total: number };
  for (const grain of [15, 60, 1440]) {
    const all = db.prepare("SELECT sum(evaluated) AS n, sum(score_milli) AS total FROM analytics_qa_rollups WHERE grain = ? AND agent_id = '*' AND scorecard_id = '*'").get(grain) as { n: number; total: number };
    assert.equal(all, results, `grain ${grain}`);
    const byScorecard = db.prepare("SELECT sum(evaluated) AS n FROM analytics_qa_rollups WHERE grain = ? AND agent_id = '*' AND scorecard_id != '*'").get(grain) as { n: number };
    assert.is(byScorecard.n, results.n);
  }
});

/** What a query must answer, summed over the facts in JavaScript: the calls of the range, by local day or week. */
function bruteForce(facts: Array<Record<string, any>>, workspaceId: string, from: string, to: string, timezone: string, filter: CallAnalyticsFilter, groupBy: CallAnalyticsGroupBy | undefined) {
  const range = parseAnalyticsRange({ from, to, timezone });
  const inRange = facts.filter(
    (row) =>
      row.workspace_id === workspaceId &&
      row.started_at >= range.fromInstant &&
      row.started_at <= range.toInstant &&
      CALL_DIMENSIONS.every((dimension) => filter[dimension] === undefined || row[dimension] === filter[dimension]),
  );
  const sum = (rows: Array<Record<string, any>>) => ({
    total_calls: rows.length,
    connected_calls: rows.filter((row) => row.connected).length,
    duration_sum: rows.reduce((total, row) => total + (row.connected ? row.duration_seconds : 0), 0),
    positive: rows.filter((row) => row.sentiment === 'positive').length,
    neutral: rows.filter((row) => row.sentiment === 'neutral').length,
    negative: rows.filter((row) => row.sentiment === 'negative').length,
    qa_sum: rows.reduce((total, row) => total + (row.qa_score === null ? 0 : milli(row.qa_score)), 0) / 1000,
    qa_count: rows.filter((row) => row.qa_score !== null).length,
  });
  const intents: Record<string, number> = {};
  for (const row of [...inRange].sort((a, b) => (a.intent < b.intent ? -1 : 1))) if (row.intent !== null) intents[row.intent] = (intents[row.intent] ?? 0) + 1;
  let groups: Array<{ group: string; totals: CallTotals }> | null = null;
  if (groupBy === 'day' || groupBy === 'week') {
    const periodOf = (row: Record<string, any>) => {
      const day = localDateOf(new Date(row.started_at), timezone);
      return groupBy === 'day' ? day : isoWeekStart(day);
    };
    const periods: string[] = [];
    const first = groupBy === 'day' ? range.fromDay : isoWeekStart(range.fromDay);
    for (let day = first; day <= range.toDay; day = new Date(Date.parse(`${day}T00:00:00Z`) + (groupBy === 'day' ? 1 : 7) * 86_400_000).toISOString().slice(0, 10)) periods.push(day);
    groups = periods.map((period) => ({ group: period, totals: sum(inRange.filter((row) => periodOf(row) === period)) }));
  } else if (groupBy !== undefined) {
    const column = ({ agent: 'agent_id', campaign: 'campaign_id', language: 'language' } as const)[groupBy];
    const values = [...new Set(inRange.map((row) => row[column] as string))].sort();
    groups = values.map((value) => ({ group: value, totals: sum(inRange.filter((row) => row[column] === value)) }));
  }
  return { totals: sum(inRange), intents, groups };
}

test('queries in any zone, with dates or date-times, equal a sum over the calls they cover', () => {
  const db = runtime.readDb;
  const facts = db.prepare('SELECT * FROM analytics_calls').all() as Array<Record<string, any>>;
  // Offsets of 0, +05:30, +05:45, +08:45, +12:45/+13:45, -03:30/-02:30, zones changing DST in the data's days,
  // and Monrovia's -00:44:30 of 1971 (not a multiple of 15 minutes: its midnights are edges read from the facts).
  const zones = ['UTC', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Eucla', 'Pacific/Chatham', 'America/St_Johns', 'Europe/London', 'America/New_York', 'Africa/Monrovia'];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const instant = (base: string, spanHours: number) => new Date(Date.parse(base) + Math.floor(random() * spanHours * 3_600_000)).toISOString();
  const cases: Array<[string, string, string, string, CallAnalyticsFilter, CallAnalyticsGroupBy | undefined]> = [
    ['ws_a', '2026-02-27', '2026-03-05', 'Europe/London', {}, 'day'],
    ['ws_a', '2026-02-27', '2026-03-20', 'America/New_York', {}, 'week'],
    ['ws_1971', '1971-03-01', '1971-03-04', 'Africa/Monrovia', {}, 'day'],
    ['ws_1971', '1971-03-02T00:00:00', '1971-03-02T23:59:59', 'Africa/Monrovia', {}, undefined],
  ];
  const groupings: Array<CallAnalyticsGroupBy | undefined> = [undefined, 'day', 'week', 'agent', 'campaign', 'language'];
  const filters: CallAnalyticsFilter[] = [{}, { campaign_id: 'cmp_1' }, { agent_id: 'agt_escalated' }, { language: 'hi-IN' }, { campaign_id: 'cmp_0', language: 'ta-IN' }];
  for (let index = 0; index < 150; index += 1) {
    const zone = zones[index % zones.length]!;
    const dates = index % 3 === 0;
    const from = dates ? `2026-03-0${1 + Math.floor(random() * 2)}` : instant('2026-03-01T12:00:00Z', 36);
    const to = dates ? `2026-03-0${3 + Math.floor(random() * 2)}` : instant('2026-03-02T23:00:00Z', 30);
    cases.push([index % 5 === 0 ? 'ws_b' : 'ws_a', from, to, zone, filters[index % filters.length]!, groupings[Math.floor(random() * groupings.length)]]);
  }
  for (const [workspaceId, from, to, timezone, filter, groupBy] of cases) {
    const expected = bruteForce(facts, workspaceId, from, to, timezone, filter, groupBy);
    const actual = callAnalytics(db, workspaceId, parseAnalyticsRange({ from, to, timezone }), filter, groupBy);
    assert.equal(actual, expected, JSON.stringify({ workspaceId, from, to, timezone, filter, groupBy }));
  }
  const monrovia = callAnalytics(db, 'ws_1971', parseAnalyticsRange({ from: '1971-03-01', to: '1971-03-04', timezone: 'Africa/Monrovia' }), {}, 'day');
  assert.equal(monrovia.groups!.map((group) => group.totals.total_calls), [1, 3, 0, 0], 'each call around the midnights on its local day');

  const qaFacts = db.prepare('SELECT * FROM analytics_qa').all() as Array<Record<string, any>>;
  const qaCases = [['2026-03-01T19:07:00Z', '2026-03-02T20:53:00Z', 'UTC'], ['2026-03-02', '2026-03-02', 'Europe/London'], ['2026-03-02', '2026-03-03', 'Asia/Kathmandu']] as const;
  const qaFilters = [{}, { scorecard_id: 'qsc_1' }, { agent_id: 'agt_escalated' }, { agent_id: '', scorecard_id: 'qsc_2' }];
  for (const [[from, to, timezone], filter] of qaCases.flatMap((qaCase) => qaFilters.map((qaFilter) => [qaCase, qaFilter] as const))) {
    const range = parseAnalyticsRange({ from, to, timezone });
    const covered = qaFacts.filter(
      (row) => row.workspace_id === 'ws_a' && row.at >= range.fromInstant && row.at <= range.toInstant && Object.entries(filter).every(([column, value]) => row[column] === value),
    );
    const sums = qaSums(db, 'ws_a', range, filter);
    assert.is(sums.evaluated, covered.length, `${from} ${to} ${timezone} ${JSON.stringify(filter)}`);
    assert.is(sums.score_sum, covered.reduce((total, row) => total + milli(row.overall_score), 0) / 1000);
    assert.is(sums.passed, covered.filter((row) => row.passed).length);
  }
});

test('a rebuild from the events gives identical tables, whatever the transactions', async () => {
  const incremental = dump(runtime.readDb);
  for (const batchSize of [1_000, 7]) {
    const rebuiltDb = openReadModelDatabase(join(dataDir, `analytics-rebuilt-${batchSize}.db`));
    const rebuilt = new ProjectionRunner(runtime.store, rebuiltDb, [analyticsProjection]);
    while ((await rebuilt.runOnce(batchSize)) > 0) {
      /* next batch */
    }
    assert.equal(dump(rebuiltDb), incremental, `batches of ${batchSize} events`);
    rebuiltDb.close();
  }
});

test.run();
