import type { ChartInput } from '../../infra/reports/charts.ts';

/**
 * Charts of the dashboard's pages: drawn by the reports' chart code (infra/reports/charts.ts, one definition for
 * PDF and page) on a report thread (`ReportPool.chart`), never on the event loop, where vega takes 20-200 ms a chart.
 * Only numbers, dates and fixed labels go in: the SVG is inserted into the page as markup.
 */
export type DrawChart = (workspaceId: string, chart: ChartInput) => Promise<string>;

/** How long a page waits for its chart (a thread busy with a long report); past it the page says so instead. */
export const CHART_WAIT_MS = 10_000;

/** Calls per day, connected and not, stacked. */
export function callsByDayChart(days: { day: string; connected: number; notConnected: number }[]): ChartInput {
  return {
    // The page's card names the chart (and still does when it is not ready).
    title: '',
    mark: 'bar',
    xTitle: 'day',
    yTitle: 'calls',
    points: days.flatMap((entry) => [
      { x: entry.day.slice(5), y: entry.connected, series: 'connected' },
      { x: entry.day.slice(5), y: entry.notConnected, series: 'not connected' },
    ]),
  };
}

/** The chart's SVG with a name for screen readers, or null when it was not ready in time. */
export async function drawnChart(draw: DrawChart, workspaceId: string, chart: ChartInput, label: string): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CHART_WAIT_MS)));
  try {
    const svg = await Promise.race([draw(workspaceId, chart), late]);
    // The SVG becomes an image with a name for screen readers; its width follows the column (CSS).
    return svg === null ? null : svg.replace('<svg ', `<svg role="img" aria-label="${label.replaceAll(/[&<>"']/g, '')}" `);
  } finally {
    clearTimeout(timer);
  }
}
