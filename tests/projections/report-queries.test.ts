import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from 'better-sqlite3';
import { REPORT_AGENTS, REPORT_CAMPAIGNS, seedReportFacts } from '../../bench/report-facts.ts';
import { callDecider, callStream } from '../../domain/call.ts';
import { defaultPack } from '../../domain/compliance/packs.ts';
import { complianceResultDecider, complianceResultStream } from '../../domain/compliance/result.ts';
import { complianceCheckResults, type ComplianceFilter } from '../../projections/compliance-results.ts';
import { parseAnalyticsRange } from '../../http/analytics-range.ts';
import type { AnalyticsRange, CallAnalyticsFilter } from '../../projections/call-analytics.ts';
import { contactReach, dispositionCounts, lowestScoringCalls, qaGroups, type QaFacts } from '../../projections/report-queries.ts';
import { reportRange } from '../../processes/reports/report-range.ts';
import { reportTypeDefinition } from '../../processes/reports/types/index.ts';
import { testRuntime } from '../support/runtime.ts';

/**
 * The report queries that read rollups or covering indexes (projections/report-queries.ts) against the per-call
 * queries they replaced, kept here verbatim as the reference: on seeded calls (bench/report-facts.ts: 4 campaigns,
 * single calls, 3 agents, two attempts per contact, 60% connected and scored, compliance evaluated) plus calls
 * escalated to another agent, calls whose start the end moves across midnight and calls still in progress, over
 * zones with offsets of 0, +05:30, +05:45, -03:30 and a DST change, whole days and date-time bounds, every filter.
 *
 * Two deliberate differences from the old queries, both in the old ones' blind spots: QA scores are summed in
 * thousandths of a point (integers, as qaSums and the endpoints do; the old float sums depended on the row order),
 * and example calls that tie on score and time are ordered by source id (the old order was whatever the scan gave).
 * The seeded scores have one decimal, as the scorer's do (infra/analysis/qa.ts), so the sums are equal here.
 */
const { runtime, remove } = testRuntime({ processes: () => [] });
const WS = 'ws_rq';

const before = {
  dispositionCounts(db: Database, range: AnalyticsRange, filter: CallAnalyticsFilter) {
    const { where, values } = callFilter(filter);
    return db
      .prepare(
        `SELECT campaign_id, disposition, count(*) AS calls FROM calls
         WHERE workspace_id = ? AND started_at >= ? AND started_at <= ? AND disposition IS NOT NULL${where}
         GROUP BY campaign_id, disposition ORDER BY campaign_id, disposition`,
      )
      .all(WS, range.fromInstant, range.toInstant, ...values);
  },
  qaGroups(db: Database, range: AnalyticsRange, filter: QaFacts, by: 'agent' | 'campaign') {
    const conditions: string[] = [];
    const values: string[] = [];
    for (const column of ['agent_id', 'scorecard_id'] as const) {
      if (filter[column] === undefined) continue;
      conditions.push(` AND q.${column} = ?`);
      values.push(filter[column]);
    }
    const group = by === 'agent' ? 'q.agent_id' : "coalesce(c.campaign_id, '')";
    const join = by === 'agent' ? '' : ' LEFT JOIN analytics_calls c ON c.call_id = q.call_id';
    return (
      db
        .prepare(
          `SELECT ${group} AS grp, count(*) AS evaluated, sum(q.overall_score) AS score_sum, sum(q.passed) AS passed
           FROM analytics_qa q${join} WHERE q.workspace_id = ? AND q.at >= ? AND q.at <= ?${conditions.join('')}
           GROUP BY grp ORDER BY grp`,
        )
        .all(WS, range.fromInstant, range.toInstant, ...values) as Array<{ grp: string; evaluated: number; score_sum: number; passed: number }>
    ).map(({ grp, ...row }) => ({ group: grp, ...row }));
  },
  complianceCheckResults(db: Database, filter: ComplianceFilter) {
    const where = `${filter.campaign_id !== undefined ? ' AND campaign_id = @campaign_id' : ''}${filter.language !== undefined ? ' AND language = @language' : ''}`;
    return db
      .prepare(
        `SELECT check_name AS "check", severity, count(DISTINCT subject_id) AS calls_evaluated,
           count(DISTINCT CASE WHEN passed = 0 THEN subject_id END) AS failed_calls, coalesce(sum(violations), 0) AS violations
         FROM compliance_checks NOT INDEXED WHERE workspace_id = @workspace_id AND occurred_at >= @from AND occurred_at <= @to${where}
         GROUP BY check_name, severity ORDER BY failed_calls DESC, check_name`,
      )
      .all({ workspace_id: WS, from: filter.fromInstant, to: filter.toInstant, ...(filter.campaign_id !== undefined ? { campaign_id: filter.campaign_id } : {}), ...(filter.language !== undefined ? { language: filter.language } : {}) });
  },
  lowestScoringCalls(db: Database, range: AnalyticsRange, agentId: string, parameterName: string, scorecardId: string | undefined, limit: number) {
    return db
      .prepare(
        `SELECT q.call_id AS call_id, p.score AS score, p.max_score AS max_score FROM analytics_qa q JOIN analytics_qa_parameters p ON p.source_id = q.source_id
         WHERE q.workspace_id = ? AND q.at >= ? AND q.at <= ? AND q.agent_id = ? AND p.parameter_name = ? AND q.call_id IS NOT NULL
           AND (? IS NULL OR q.scorecard_id = ?)
         ORDER BY p.score * 1.0 / p.max_score, q.at DESC, q.source_id LIMIT ?`,
      )
      .all(WS, range.fromInstant, range.toInstant, agentId, parameterName, scorecardId ?? null, scorecardId ?? null, limit);
  },
};

function callFilter(filter: CallAnalyticsFilter): { where: string; values: string[] } {
  const entries = (['campaign_id', 'agent_id', 'language'] as const).filter((column) => filter[column] !== undefined);
  return { where: entries.map((column) => ` AND ${column} = ?`).join(''), values: entries.map((column) => filter[column]!) };
}

test.before(async () => {
  await runtime.start();
  await seedReportFacts(runtime, { workspaceId: WS, calls: 900, days: 3, firstDay: '2026-03-01', compliance: true });
  // Beyond the seed: escalations to another agent, starts moved by the end across a midnight, calls in progress.
  const context = { workspaceId: WS, actor: 'test', now: runtime.clock.now() };
  for (let index = 0; index < 12; index += 1) {
    const callId = `cal_extra${index}`;
    const placedAt = new Date(Date.parse('2026-03-01T18:20:00Z') + index * 3 * 60_000);
    await runtime.commands.handle(
      callDecider,
      callStream(callId),
      {
        type: 'PlaceCall',
        facts: { suppressed: false, script: null, agent_found: true },
        data: {
          call_id: callId,
          workspace_id: WS,
          campaign_id: REPORT_CAMPAIGNS[index % 2]!,
          contact_index: 10_000 + Math.floor(index / 3),
          attempt: 1 + (index % 3),
          contact: { phone: `+9197000${String(index).padStart(5, '0')}`, name: 'C' },
          language: 'hi-IN',
          script_id: 'scr_seed',
          script_version: 1,
          variables: {},
          recording_enabled: false,
          started_at: placedAt.toISOString(),
          agent_id: REPORT_AGENTS[0].id,
        } as never,
      },
      context,
    );
    if (index % 4 === 3) continue; // still in progress: no disposition
    const at = (seconds: number) => new Date(placedAt.getTime() + seconds * 1000).toISOString();
    const escalated = index % 4 === 1;
    await runtime.commands.handle(
      callDecider,
      callStream(callId),
      {
        type: 'RecordCallResult',
        data: {
          answered_at: at(5),
          turns: [],
          escalation: escalated ? { reason: 'customer_requested_agent', escalated_at: at(20), summary: 's', agent_id: REPORT_AGENTS[2].id } : null,
          disposition: escalated ? 'escalated' : 'interested',
          duration_seconds: 40,
          ended_at: at(60),
          started_at: index % 4 === 2 ? at(15 * 60) : undefined,
        },
      },
      context,
    );
  }
  // A call evaluated under two packs that both check for threats: the check counts the call once.
  await runtime.commands.handle(
    complianceResultDecider,
    complianceResultStream('cal_extra0'),
    {
      type: 'RecordComplianceEvaluation',
      data: {
        subject_id: 'cal_extra0',
        call_id: 'cal_extra0',
        job_id: 'job_extra0',
        workspace_id: WS,
        campaign_id: REPORT_CAMPAIGNS[0]!,
        language: 'hi-IN',
        purpose: 'recovery',
        occurred_at: '2026-03-01T18:20:00.000Z',
        packs: [defaultPack('in-rbi-recovery'), defaultPack('general')],
        opt_out: null,
        evaluated_at: '2026-03-01T18:30:00.000Z',
        compliance_score: 50,
        passed_checks: [],
        violations: [
          { check: 'no_threats', description: 'threat', severity: 'critical', rule_id: 'in-rbi-recovery.no_threats', rule_pack: { id: 'in-rbi-recovery', version: '1.0.0' }, evidence: null },
          { check: 'no_threats', description: 'threat', severity: 'critical', rule_id: 'general.no_threats', rule_pack: { id: 'general', version: '1.0.0' }, evidence: null },
        ],
        checks: [
          { rule_id: 'in-rbi-recovery.no_threats', check: 'no_threats', severity: 'critical', passed: false },
          { rule_id: 'general.no_threats', check: 'no_threats', severity: 'critical', passed: false },
          { rule_id: 'general.recording_disclosure', check: 'recording_disclosure', severity: 'warning', passed: true },
        ],
      },
    },
    context,
  );
  await runtime.projections.catchUp();
});
test.after(async () => {
  await runtime.close();
  remove();
});

const zones = ['UTC', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'Europe/London'];
const ranges: AnalyticsRange[] = [
  ...zones.map((zone) => reportRange({ from: '2026-03-01', to: '2026-03-03' }, zone)),
  ...zones.map((zone) => reportRange({ from: '2026-03-02', to: '2026-03-02' }, zone)),
  parseAnalyticsRange({ from: '2026-03-01T18:07:00Z', to: '2026-03-02T06:53:10Z', timezone: 'UTC' }),
  parseAnalyticsRange({ from: '2026-03-01T23:31:00', to: '2026-03-02T00:29:00', timezone: 'Asia/Kolkata' }),
  reportRange({ from: '2026-03-28', to: '2026-03-29' }, 'Europe/London'),
];
const callFilters: CallAnalyticsFilter[] = [{}, { campaign_id: REPORT_CAMPAIGNS[1] }, { agent_id: REPORT_AGENTS[2].id }, { language: 'ta-IN' }, { campaign_id: REPORT_CAMPAIGNS[0], agent_id: REPORT_AGENTS[0].id }];
const qaFilters: QaFacts[] = [{}, { agent_id: REPORT_AGENTS[1].id }, { scorecard_id: 'qsc_seed' }, { scorecard_id: 'qsc_other' }];

test('dispositions from the rollups equal the GROUP BY over the calls read model', () => {
  let nonEmpty = 0;
  for (const range of ranges) {
    for (const filter of callFilters) {
      const expected = before.dispositionCounts(runtime.readDb, range, filter);
      if (expected.length > 0) nonEmpty += 1;
      assert.equal(dispositionCounts(runtime.readDb, WS, range, filter), expected, JSON.stringify({ range, filter }));
    }
  }
  assert.ok(nonEmpty > 40, 'the cases have calls');
  const all = dispositionCounts(runtime.readDb, WS, reportRange({ from: '2026-03-01', to: '2026-03-03' }, 'UTC'), {});
  assert.ok(all.some((row) => row.campaign_id === null) && all.some((row) => row.disposition === 'escalated'), 'single calls and escalations are among them');
});

test('QA by agent from the rollups and by campaign equal the per-result GROUP BY', () => {
  for (const range of ranges) {
    for (const filter of qaFilters) {
      for (const by of ['agent', 'campaign'] as const) {
        assert.equal(qaGroups(runtime.readDb, WS, range, filter, by), before.qaGroups(runtime.readDb, range, filter, by), JSON.stringify({ range, filter, by }));
      }
    }
  }
});

test('the lowest-scoring calls from the index equal the scan of the range, worst first', () => {
  let examples = 0;
  for (const range of ranges) {
    for (const agent of [...REPORT_AGENTS.map((row) => row.id), 'agt_nobody']) {
      for (const parameter of ['greeting', 'courtesy']) {
        for (const scorecard of [undefined, 'qsc_seed', 'qsc_other']) {
          for (const limit of [3, 40]) {
            const expected = before.lowestScoringCalls(runtime.readDb, range, agent, parameter, scorecard, limit);
            examples += expected.length;
            assert.equal(lowestScoringCalls(runtime.readDb, WS, range, agent, parameter, scorecard, limit), expected, JSON.stringify({ range, agent, parameter, scorecard, limit }));
          }
        }
      }
    }
  }
  assert.ok(examples > 1000, 'the cases have examples');
});

test('compliance check results from the covering index equal the table scan, a check twice in a call counted once', () => {
  const filters = [{}, { campaign_id: REPORT_CAMPAIGNS[0] }, { language: 'te-IN' }, { campaign_id: REPORT_CAMPAIGNS[2], language: 'ta-IN' }];
  let rows = 0;
  for (const range of ranges) {
    for (const extra of filters) {
      const filter: ComplianceFilter = { fromInstant: range.fromInstant, toInstant: range.toInstant, ...extra };
      const expected = before.complianceCheckResults(runtime.readDb, filter);
      rows += expected.length;
      assert.equal(complianceCheckResults(runtime.readDb, WS, filter), expected, JSON.stringify(filter));
    }
  }
  assert.ok(rows > 40, 'the cases have checks');
  const twice = before.complianceCheckResults(runtime.readDb, { fromInstant: '2026-03-01T18:20:00.000Z', toInstant: '2026-03-01T18:20:00.000Z' });
  assert.equal(twice, [
    { check: 'no_threats', severity: 'critical', calls_evaluated: 1, failed_calls: 1, violations: 2 },
    { check: 'recording_disclosure', severity: 'warning', calls_evaluated: 1, failed_calls: 0, violations: 0 },
  ]);
});

test('contact reach reads the covering index', () => {
  const plan = runtime.readDb
    .prepare(
      `EXPLAIN QUERY PLAN SELECT campaign_id, contact_index, count(*) AS attempts, max(answered_at IS NOT NULL) AS reached FROM calls
       WHERE workspace_id = ? AND started_at >= ? AND started_at <= ? AND campaign_id IS NOT NULL GROUP BY campaign_id, contact_index`,
    )
    .all(WS, '2026-03-01', '2026-03-04') as Array<{ detail: string }>;
  assert.ok(plan.some((row) => row.detail.includes('COVERING INDEX calls_contacts_by_started')), JSON.stringify(plan));
  const reach = contactReach(runtime.readDb, WS, reportRange({ from: '2026-03-01', to: '2026-03-03' }, 'UTC'), {});
  assert.is(reach.length, 4);
});

test('every report type collects without error on the fixture, in every zone', () => {
  for (const type of ['call_summary', 'qa_performance', 'compliance_audit', 'agent_coaching', 'campaign_performance'] as const) {
    const definition = reportTypeDefinition(type);
    for (const zone of zones) {
      const { data } = definition.collect({ db: runtime.readDb, workspaceId: WS, period: { from: '2026-03-01', to: '2026-03-03' }, range: reportRange({ from: '2026-03-01', to: '2026-03-03' }, zone), filters: {}, callUrl: (id) => `/v1/calls/${id}` });
      assert.ok(definition.schema.safeParse(data).success, `${type} ${zone}`);
    }
  }
});

test.run();
