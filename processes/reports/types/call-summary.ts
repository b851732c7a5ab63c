import { z } from 'zod';
import { DISPOSITIONS, emptyDispositionSummary, isDisposition, type DispositionSummary } from '../../../domain/shared/disposition.ts';
import { callAnalytics, type CallTotals } from '../../../projections/call-analytics.ts';
import { dispositionCounts } from '../../../projections/report-queries.ts';
import { averageOf, DISPOSITION_TITLES, percent, rateOf, type ReportSource, type ReportTypeDefinition } from '../report-type.ts';
import { nameLookup } from './names.ts';

const Dispositions = z.strictObject(Object.fromEntries(DISPOSITIONS.map((name) => [name, z.number().int().min(0)])) as Record<(typeof DISPOSITIONS)[number], z.ZodNumber>);

const callFigures = {
  total_calls: z.number().int().min(0),
  connected_calls: z.number().int().min(0),
  connection_rate: z.number().min(0).max(1).meta({ description: 'connected_calls / total_calls (0 without calls).' }),
  avg_duration_seconds: z.number().nullable().meta({ description: 'Average duration of the connected calls; null without any.' }),
};

export const CallSummaryDataSchema = z
  .strictObject({
    totals: z.strictObject({ ...callFigures, dispositions: Dispositions }),
    by_campaign: z.array(
      z.strictObject({
        campaign_id: z.string().nullable().meta({ description: 'Null: single calls (POST /v1/calls).' }),
        campaign_name: z.string().nullable(),
        ...callFigures,
        dispositions: Dispositions,
      }),
    ),
    by_day: z.array(z.strictObject({ date: z.string().meta({ example: '2026-03-01' }), ...callFigures })).meta({ description: 'Every day of the period, zeros included.' }),
  })
  .meta({ id: 'CallSummaryReportData' });

export type CallSummaryData = z.infer<typeof CallSummaryDataSchema>;

function figures(totals: CallTotals) {
  return {
    total_calls: totals.total_calls,
    connected_calls: totals.connected_calls,
    connection_rate: rateOf(totals.connected_calls, totals.total_calls),
    avg_duration_seconds: averageOf(totals.duration_sum, totals.connected_calls),
  };
}

function collect(source: ReportSource): CallSummaryData {
  const { db, workspaceId, range, filters } = source;
  const filter = { campaign_id: filters.campaign_id, agent_id: filters.agent_id, language: filters.language };
  const names = nameLookup(db, workspaceId);
  const overall = callAnalytics(db, workspaceId, range, filter, 'campaign');
  const byDay = callAnalytics(db, workspaceId, range, filter, 'day').groups ?? [];
  const dispositions = emptyDispositionSummary();
  const dispositionsByCampaign = new Map<string, DispositionSummary>();
  for (const row of dispositionCounts(db, workspaceId, range, filter)) {
    if (!isDisposition(row.disposition)) continue;
    dispositions[row.disposition] += row.calls;
    const key = row.campaign_id ?? '';
    const summary = dispositionsByCampaign.get(key) ?? emptyDispositionSummary();
    summary[row.disposition] += row.calls;
    dispositionsByCampaign.set(key, summary);
  }
  return {
    totals: { ...figures(overall.totals), dispositions },
    by_campaign: (overall.groups ?? []).map(({ group, totals }) => ({
      campaign_id: group === '' ? null : group,
      campaign_name: names.campaign(group),
      ...figures(totals),
      dispositions: dispositionsByCampaign.get(group) ?? emptyDispositionSummary(),
    })),
    by_day: byDay.map(({ group, totals }) => ({ date: group, ...figures(totals) })),
  };
}

export const callSummaryReport: ReportTypeDefinition<CallSummaryData> = {
  type: 'call_summary',
  title: 'Call summary',
  description: 'Totals, connected calls, connection rate, dispositions and average duration, by campaign and by day.',
  filters: ['campaign_id', 'agent_id', 'language'],
  schema: CallSummaryDataSchema,
  collect,
  layout(data) {
    const t = data.totals;
    return {
      summary: [
        { label: 'Calls', value: t.total_calls },
        { label: 'Connected', value: t.connected_calls },
        { label: 'Connection rate', value: percent(t.connection_rate) },
        { label: 'Average duration (s)', value: t.avg_duration_seconds },
      ],
      charts: [
        {
          title: 'Calls by day',
          mark: 'line',
          temporal: true,
          xTitle: 'Day',
          yTitle: 'Calls',
          points: data.by_day.flatMap((day) => [
            { x: day.date, y: day.total_calls, series: 'Calls' },
            { x: day.date, y: day.connected_calls, series: 'Connected' },
          ]),
        },
        { title: 'Dispositions', mark: 'bar', xTitle: 'Disposition', yTitle: 'Calls', points: DISPOSITIONS.map((name) => ({ x: name, y: t.dispositions[name] })) },
      ],
      tables: [
        {
          name: 'by_campaign',
          title: 'By campaign',
          columns: [
            { key: 'campaign_id', title: 'Campaign ID' },
            { key: 'campaign_name', title: 'Campaign' },
            { key: 'total_calls', title: 'Calls', numeric: true },
            { key: 'connected_calls', title: 'Connected', numeric: true },
            { key: 'connection_rate', title: 'Connection rate', numeric: true },
            { key: 'avg_duration_seconds', title: 'Avg duration (s)', numeric: true },
            ...DISPOSITIONS.map((name) => ({ key: name, title: DISPOSITION_TITLES[name]!, numeric: true })),
          ],
          rows: data.by_campaign.map(({ dispositions, ...row }) => ({ ...row, campaign_name: row.campaign_name ?? (row.campaign_id === null ? 'Single calls' : null), ...dispositions })),
        },
        {
          name: 'by_day',
          title: 'By day',
          columns: [
            { key: 'date', title: 'Date' },
            { key: 'total_calls', title: 'Calls', numeric: true },
            { key: 'connected_calls', title: 'Connected', numeric: true },
            { key: 'connection_rate', title: 'Connection rate', numeric: true },
            { key: 'avg_duration_seconds', title: 'Avg duration (s)', numeric: true },
          ],
          rows: data.by_day,
        },
      ],
    };
  },
};
