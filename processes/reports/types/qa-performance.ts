import { z } from 'zod';
import { addDays } from '../../../domain/shared/time-zone.ts';
import { periodsOf } from '../../../projections/analytics-range-plan.ts';
import { qaSums } from '../../../projections/qa-analytics.ts';
import { qaGroups } from '../../../projections/report-queries.ts';
import { reportRange } from '../report-range.ts';
import { averageOf, percent, rateOf, type ReportSource, type ReportTypeDefinition } from '../report-type.ts';
import { nameLookup } from './names.ts';

const qaFigures = {
  calls_evaluated: z.number().int().min(0),
  avg_score: z.number().nullable().meta({ description: 'Average overall score (0-100); null when nothing was scored.' }),
  pass_rate: z.number().min(0).max(1),
};

export const QaPerformanceDataSchema = z
  .strictObject({
    totals: z.strictObject(qaFigures),
    by_agent: z.array(z.strictObject({ agent_id: z.string().nullable().meta({ description: 'Null: results without an agent.' }), agent_name: z.string().nullable(), ...qaFigures })),
    by_parameter: z.array(
      z.strictObject({
        parameter: z.string(),
        calls_evaluated: z.number().int().min(0),
        avg_score: z.number(),
        max_score: z.number(),
        pass_rate: z.number().min(0).max(1),
      }),
    ),
    by_campaign: z.array(z.strictObject({ campaign_id: z.string().nullable().meta({ description: 'Null: single calls and standalone jobs.' }), campaign_name: z.string().nullable(), ...qaFigures })),
    weekly_trend: z
      .array(z.strictObject({ week_start: z.string().meta({ description: 'The Monday of the ISO week (the first week may start before the period).' }), ...qaFigures }))
      .meta({ description: 'Every ISO week the period touches, zeros included.' }),
  })
  .meta({ id: 'QaPerformanceReportData' });

export type QaPerformanceData = z.infer<typeof QaPerformanceDataSchema>;

function figures(sums: { evaluated: number; score_sum: number; passed: number }) {
  return { calls_evaluated: sums.evaluated, avg_score: averageOf(sums.score_sum, sums.evaluated), pass_rate: rateOf(sums.passed, sums.evaluated) };
}

function collect({ db, workspaceId, period, range, filters }: ReportSource): QaPerformanceData {
  const filter = { agent_id: filters.agent_id, scorecard_id: filters.scorecard_id };
  const names = nameLookup(db, workspaceId);
  const overall = qaSums(db, workspaceId, range, filter);
  const weekly = periodsOf(range, 'week').map((weekStart) => {
    const from = weekStart < period.from ? period.from : weekStart;
    const lastDay = addDays(weekStart, 6);
    const to = lastDay > period.to ? period.to : lastDay;
    return { week_start: weekStart, ...figures(qaSums(db, workspaceId, reportRange({ from, to }, range.timezone), filter)) };
  });
  return {
    totals: figures(overall),
    by_agent: qaGroups(db, workspaceId, range, filter, 'agent').map((row) => ({ agent_id: row.group || null, agent_name: names.agent(row.group), ...figures(row) })),
    by_parameter: overall.parameters.map((parameter) => ({
      parameter: parameter.name,
      calls_evaluated: parameter.evaluated,
      avg_score: averageOf(parameter.score_sum, parameter.evaluated) ?? 0,
      max_score: parameter.max_score,
      pass_rate: rateOf(parameter.passed, parameter.evaluated),
    })),
    by_campaign: qaGroups(db, workspaceId, range, filter, 'campaign').map((row) => ({ campaign_id: row.group || null, campaign_name: names.campaign(row.group), ...figures(row) })),
    weekly_trend: weekly,
  };
}

const figureColumns = [
  { key: 'calls_evaluated', title: 'Evaluated', numeric: true },
  { key: 'avg_score', title: 'Avg score', numeric: true },
  { key: 'pass_rate', title: 'Pass rate', numeric: true },
];

export const qaPerformanceReport: ReportTypeDefinition<QaPerformanceData> = {
  type: 'qa_performance',
  title: 'QA performance',
  description: 'QA scores and pass rates by agent, by scorecard parameter and by campaign, with a weekly trend.',
  filters: ['agent_id', 'scorecard_id'],
  schema: QaPerformanceDataSchema,
  collect,
  layout(data) {
    return {
      summary: [
        { label: 'Calls evaluated', value: data.totals.calls_evaluated },
        { label: 'Average score', value: data.totals.avg_score },
        { label: 'Pass rate', value: percent(data.totals.pass_rate) },
      ],
      charts: [
        { title: 'Weekly average score', mark: 'line', temporal: true, xTitle: 'Week', yTitle: 'Average score', points: data.weekly_trend.map((week) => ({ x: week.week_start, y: week.avg_score ?? 0 })) },
        { title: 'Average score by agent', mark: 'bar', xTitle: 'Agent', yTitle: 'Average score', points: data.by_agent.map((agent) => ({ x: agent.agent_id ?? 'No agent', y: agent.avg_score ?? 0 })) },
      ],
      tables: [
        {
          name: 'by_agent',
          title: 'By agent',
          columns: [{ key: 'agent_id', title: 'Agent ID' }, { key: 'agent_name', title: 'Agent' }, ...figureColumns],
          rows: data.by_agent,
        },
        {
          name: 'by_parameter',
          title: 'By parameter',
          columns: [
            { key: 'parameter', title: 'Parameter' },
            { key: 'calls_evaluated', title: 'Evaluated', numeric: true },
            { key: 'avg_score', title: 'Avg score', numeric: true },
            { key: 'max_score', title: 'Max score', numeric: true },
            { key: 'pass_rate', title: 'Pass rate', numeric: true },
          ],
          rows: data.by_parameter,
        },
        {
          name: 'by_campaign',
          title: 'By campaign',
          columns: [{ key: 'campaign_id', title: 'Campaign ID' }, { key: 'campaign_name', title: 'Campaign' }, ...figureColumns],
          rows: data.by_campaign,
        },
        { name: 'weekly_trend', title: 'Weekly trend', columns: [{ key: 'week_start', title: 'Week of' }, ...figureColumns], rows: data.weekly_trend },
      ],
    };
  },
};
