import { z } from 'zod';
import { DISPOSITIONS, emptyDispositionSummary, isDisposition, type DispositionSummary } from '../../../domain/shared/disposition.ts';
import { callAnalytics } from '../../../projections/call-analytics.ts';
import { contactReach, dispositionCounts } from '../../../projections/report-queries.ts';
import { DISPOSITION_TITLES, percent, rateOf, round, type ReportSource, type ReportTypeDefinition } from '../report-type.ts';
import { nameLookup } from './names.ts';

const Dispositions = z.strictObject(Object.fromEntries(DISPOSITIONS.map((name) => [name, z.number().int().min(0)])) as Record<(typeof DISPOSITIONS)[number], z.ZodNumber>);

const reachFigures = {
  total_calls: z.number().int().min(0).meta({ description: 'Attempts (calls) that started in the period.' }),
  connected_calls: z.number().int().min(0),
  contacts_attempted: z.number().int().min(0),
  contacts_reached: z.number().int().min(0).meta({ description: 'Contacts with at least one answered attempt in the period.' }),
  reach_rate: z.number().min(0).max(1).meta({ description: 'contacts_reached / contacts_attempted.' }),
  attempts_per_contact: z.number().nullable().meta({ description: 'total_calls / contacts_attempted; null without contacts.' }),
};

export const CampaignPerformanceDataSchema = z
  .strictObject({
    totals: z.strictObject(reachFigures),
    campaigns: z.array(z.strictObject({ campaign_id: z.string(), campaign_name: z.string().nullable(), ...reachFigures, dispositions: Dispositions })),
    disposition_mix: z.array(z.strictObject({ disposition: z.enum(DISPOSITIONS), calls: z.number().int().min(0), share: z.number().min(0).max(1) })),
    sentiment_trend: z
      .array(
        z.strictObject({
          date: z.string(),
          analysed_calls: z.number().int().min(0),
          positive: z.number().min(0).max(1),
          neutral: z.number().min(0).max(1),
          negative: z.number().min(0).max(1),
        }),
      )
      .meta({ description: 'Every day of the period: shares of the calls analysed that day (0 without any).' }),
    intent_mix: z.array(z.strictObject({ intent: z.string(), calls: z.number().int().min(0), share: z.number().min(0).max(1) })),
  })
  .meta({ id: 'CampaignPerformanceReportData' });

export type CampaignPerformanceData = z.infer<typeof CampaignPerformanceDataSchema>;

function reach(calls: { total_calls: number; connected_calls: number }, contacts: { contacts_attempted: number; contacts_reached: number }) {
  return {
    total_calls: calls.total_calls,
    connected_calls: calls.connected_calls,
    contacts_attempted: contacts.contacts_attempted,
    contacts_reached: contacts.contacts_reached,
    reach_rate: rateOf(contacts.contacts_reached, contacts.contacts_attempted),
    attempts_per_contact: contacts.contacts_attempted === 0 ? null : round(calls.total_calls / contacts.contacts_attempted, 2),
  };
}

function collect({ db, workspaceId, range, filters }: ReportSource): CampaignPerformanceData {
  const filter = { campaign_id: filters.campaign_id, agent_id: filters.agent_id, language: filters.language };
  const names = nameLookup(db, workspaceId);
  const byCampaign = callAnalytics(db, workspaceId, range, filter, 'campaign');
  const byDay = callAnalytics(db, workspaceId, range, filter, 'day').groups ?? [];
  const contacts = new Map(contactReach(db, workspaceId, range, filter).map((row) => [row.campaign_id, row]));
  const dispositions = new Map<string, DispositionSummary>();
  const mix = emptyDispositionSummary();
  for (const row of dispositionCounts(db, workspaceId, range, filter)) {
    // Campaign performance is about campaign calls: single calls (no campaign) are left out.
    if (row.campaign_id === null || !isDisposition(row.disposition)) continue;
    mix[row.disposition] += row.calls;
    const summary = dispositions.get(row.campaign_id) ?? emptyDispositionSummary();
    summary[row.disposition] += row.calls;
    dispositions.set(row.campaign_id, summary);
  }
  const campaigns = (byCampaign.groups ?? [])
    .filter(({ group }) => group !== '')
    .map(({ group, totals }) => ({
      campaign_id: group,
      campaign_name: names.campaign(group),
      ...reach(totals, contacts.get(group) ?? { contacts_attempted: 0, contacts_reached: 0 }),
      dispositions: dispositions.get(group) ?? emptyDispositionSummary(),
    }));
  const sum = (key: 'total_calls' | 'connected_calls' | 'contacts_attempted' | 'contacts_reached') => campaigns.reduce((total, campaign) => total + campaign[key], 0);
  const dispositionTotal = DISPOSITIONS.reduce((total, name) => total + mix[name], 0);
  const intentTotal = Object.values(byCampaign.intents).reduce((total, calls) => total + calls, 0);
  return {
    totals: reach({ total_calls: sum('total_calls'), connected_calls: sum('connected_calls') }, { contacts_attempted: sum('contacts_attempted'), contacts_reached: sum('contacts_reached') }),
    campaigns,
    disposition_mix: DISPOSITIONS.map((disposition) => ({ disposition, calls: mix[disposition], share: rateOf(mix[disposition], dispositionTotal) })),
    sentiment_trend: byDay.map(({ group, totals }) => {
      const analysed = totals.positive + totals.neutral + totals.negative;
      return { date: group, analysed_calls: analysed, positive: rateOf(totals.positive, analysed), neutral: rateOf(totals.neutral, analysed), negative: rateOf(totals.negative, analysed) };
    }),
    intent_mix: Object.entries(byCampaign.intents)
      .sort(([a, callsA], [b, callsB]) => callsB - callsA || a.localeCompare(b))
      .map(([intent, calls]) => ({ intent, calls, share: rateOf(calls, intentTotal) })),
  };
}

export const campaignPerformanceReport: ReportTypeDefinition<CampaignPerformanceData> = {
  type: 'campaign_performance',
  title: 'Campaign performance',
  description: 'Reach rate, attempts per contact and disposition mix per campaign, sentiment trend by day and intent mix.',
  filters: ['campaign_id', 'agent_id', 'language'],
  schema: CampaignPerformanceDataSchema,
  collect,
  layout(data) {
    const t = data.totals;
    return {
      summary: [
        { label: 'Campaign calls', value: t.total_calls },
        { label: 'Contacts attempted', value: t.contacts_attempted },
        { label: 'Reach rate', value: percent(t.reach_rate) },
        { label: 'Attempts per contact', value: t.attempts_per_contact },
      ],
      charts: [
        {
          title: 'Sentiment by day (share of analysed calls)',
          mark: 'line',
          temporal: true,
          xTitle: 'Day',
          yTitle: 'Share',
          points: data.sentiment_trend.flatMap((day) => (['positive', 'neutral', 'negative'] as const).map((bucket) => ({ x: day.date, y: day[bucket], series: bucket }))),
        },
        { title: 'Disposition mix', mark: 'bar', xTitle: 'Disposition', yTitle: 'Calls', points: data.disposition_mix.map((row) => ({ x: row.disposition, y: row.calls })) },
      ],
      tables: [
        {
          name: 'campaigns',
          title: 'Campaigns',
          columns: [
            { key: 'campaign_id', title: 'Campaign ID' },
            { key: 'campaign_name', title: 'Campaign' },
            { key: 'total_calls', title: 'Calls', numeric: true },
            { key: 'contacts_attempted', title: 'Contacts', numeric: true },
            { key: 'contacts_reached', title: 'Reached', numeric: true },
            { key: 'reach_rate', title: 'Reach rate', numeric: true },
            { key: 'attempts_per_contact', title: 'Attempts/contact', numeric: true },
            ...DISPOSITIONS.map((name) => ({ key: name, title: DISPOSITION_TITLES[name]!, numeric: true })),
          ],
          rows: data.campaigns.map(({ dispositions, ...row }) => ({ ...row, ...dispositions })),
        },
        {
          name: 'sentiment_trend',
          title: 'Sentiment by day',
          columns: [
            { key: 'date', title: 'Date' },
            { key: 'analysed_calls', title: 'Analysed', numeric: true },
            { key: 'positive', title: 'Positive', numeric: true },
            { key: 'neutral', title: 'Neutral', numeric: true },
            { key: 'negative', title: 'Negative', numeric: true },
          ],
          rows: data.sentiment_trend,
        },
        { name: 'intent_mix', title: 'Intent mix', columns: [{ key: 'intent', title: 'Intent' }, { key: 'calls', title: 'Calls', numeric: true }, { key: 'share', title: 'Share', numeric: true }], rows: data.intent_mix },
      ],
    };
  },
};
