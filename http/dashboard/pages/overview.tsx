import { raw } from 'hono/html';
import { DISPOSITIONS } from '../../../domain/shared/disposition.ts';
import { addDays, localDateOf, startOfLocalDate } from '../../../domain/shared/time-zone.ts';
import { unwrap } from '../api-client.ts';
import { callsByDayChart, drawnChart } from '../chart.ts';
import { Empty, Layout, ZoneNote } from '../view.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

interface CallAnalytics {
  total_calls: number;
  connected_calls: number;
  connection_rate: number;
  avg_duration_seconds: number | null;
  sentiment_breakdown: Record<'positive' | 'neutral' | 'negative', number>;
  avg_qa_score: number | null;
  grouped_data?: { group: string; total_calls: number; connected_calls: number; avg_qa_score: number | null }[];
}

/** GET /v1/analytics/compliance without call_id: the aggregate (only the figures the overview shows). */
interface ComplianceAggregate { calls_evaluated: number; violations_by_severity: { critical: number; warning: number } }

const percent = (fraction: number) => `${Math.round(fraction * 1000) / 10}%`;
const OVERVIEW_DAYS = 30;

/** Overview: today and the last 30 days in the viewer's zone, from the analytics and calls endpoints. */
export function overviewPages(app: DashboardApp, { clock, drawChart }: PageDeps) {
  app.get('/', async (c) => {
    const viewer = c.get('viewer');
    const api = c.get('api');
    const zone = viewer.timeZone;
    const today = localDateOf(clock.now(), zone);
    const first = addDays(today, -(OVERVIEW_DAYS - 1));
    const [todayStats, monthStats, todayCompliance, monthCompliance, dispositions] = await Promise.all([
      api.get<CallAnalytics>('/analytics/calls', { from: today, to: today, timezone: zone }).then(unwrap),
      api.get<CallAnalytics>('/analytics/calls', { from: first, to: today, timezone: zone, group_by: 'day' }).then(unwrap),
      api.get<ComplianceAggregate>('/analytics/compliance', { from: today, to: today, timezone: zone }).then(unwrap),
      api.get<ComplianceAggregate>('/analytics/compliance', { from: first, to: today, timezone: zone }).then(unwrap),
      // The disposition mix: the calls list's total per disposition over the same 30 local days.
      Promise.all(
        DISPOSITIONS.map(async (disposition) => {
          const page = unwrap(
            await api.get<{ total: number }>('/calls', {
              disposition,
              from: startOfLocalDate(first, zone).toISOString(),
              to: new Date(startOfLocalDate(addDays(today, 1), zone).getTime() - 1).toISOString(),
              limit: 1,
            }),
          );
          return [disposition, page.total] as const;
        }),
      ),
    ]);
    const days = (monthStats.grouped_data ?? []).map((group) => ({ day: group.group, connected: group.connected_calls, notConnected: group.total_calls - group.connected_calls }));
    const chart = monthStats.total_calls > 0 ? await drawnChart(drawChart, viewer.workspaceId, callsByDayChart(days), `Calls per day, last ${OVERVIEW_DAYS} days`).catch(() => null) : null;
    const dispositionTotal = dispositions.reduce((sum, [, count]) => sum + count, 0);
    return c.html(
      <Layout title="Overview" viewer={viewer} path="/">
        <ZoneNote zone={zone} />
        <h2>Today ({today})</h2>
        <Metrics stats={todayStats} compliance={todayCompliance} />
        <h2>Last {OVERVIEW_DAYS} days ({first} to {today})</h2>
        {monthStats.total_calls === 0 ? (
          <Empty>
            <p>No calls in the last {OVERVIEW_DAYS} days yet.</p>
            <p>
              To start calling, <a href="/scripts/new">write a script</a>, then <a href="/campaigns/new">create a campaign</a> from a CSV of contacts.
            </p>
          </Empty>
        ) : (
          <>
            <Metrics stats={monthStats} compliance={monthCompliance} />
            <div class="card chart">
              <h3 class="small muted">Calls per day</h3>
              {chart === null ? <p class="muted small">The chart is not ready (the report threads are busy); reload in a moment.</p> : raw(chart)}
            </div>
            <div class="split">
              <div class="card">
                <h3 class="small muted">Disposition mix</h3>
                <table>
                  <thead>
                    <tr><th scope="col">Disposition</th><th scope="col">Calls</th><th scope="col">Share</th></tr>
                  </thead>
                  <tbody>
                    {dispositions.map(([disposition, count]) => (
                      <tr>
                        <td><a href={`/calls?disposition=${disposition}`}>{disposition.replaceAll('_', ' ')}</a></td>
                        <td>{count}</td>
                        <td>{dispositionTotal ? percent(count / dispositionTotal) : '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div class="card">
                <h3 class="small muted">Sentiment of analysed calls</h3>
                <dl class="facts">
                  <dt>Positive</dt><dd>{percent(monthStats.sentiment_breakdown.positive)}</dd>
                  <dt>Neutral</dt><dd>{percent(monthStats.sentiment_breakdown.neutral)}</dd>
                  <dt>Negative</dt><dd>{percent(monthStats.sentiment_breakdown.negative)}</dd>
                </dl>
              </div>
            </div>
          </>
        )}
      </Layout>,
    );
  });
}

function Metrics({ stats, compliance }: { stats: CallAnalytics; compliance: ComplianceAggregate }) {
  return (
    <div class="cards">
      <Metric label="Calls" value={String(stats.total_calls)} />
      <Metric label="Connected" value={String(stats.connected_calls)} />
      <Metric label="Connection rate" value={percent(stats.connection_rate)} />
      <Metric label="Average duration" value={stats.avg_duration_seconds === null ? '—' : `${Math.round(stats.avg_duration_seconds)} s`} />
      <Metric label="QA average" value={stats.avg_qa_score === null ? '—' : `${Math.round(stats.avg_qa_score)} / 100`} />
      <Metric label="Critical compliance violations" value={compliance.calls_evaluated === 0 ? '—' : String(compliance.violations_by_severity.critical)} testId="critical-violations" />
    </div>
  );
}

function Metric({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div class="metric" data-testid={testId}>
      <div class="value">{value}</div>
      <div class="label">{label}</div>
    </div>
  );
}
