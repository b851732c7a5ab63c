import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/**
 * A chart as SVG text, rendered on the server with vega-lite (no script in the page). Only numbers, dates and
 * fixed labels may go into `spec`'s data: the SVG is inserted as markup. Vega renders with no loader access to
 * anything (inline values only).
 */
export async function renderChart(spec: TopLevelSpec, title: string): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none', loader: vega.loader({ mode: 'file' }) });
  const svg = await view.toSVG();
  view.finalize();
  // The SVG becomes an image with a name for screen readers.
  return svg.replace('<svg ', `<svg role="img" aria-label="${title.replaceAll(/[&<>"']/g, '')}" `);
}

/** Calls per day, connected and not, stacked. */
export function callsByDaySpec(days: { day: string; connected: number; notConnected: number }[]): TopLevelSpec {
  const values = days.flatMap((entry) => [
    { day: entry.day.slice(5), calls: entry.connected, kind: 'connected' },
    { day: entry.day.slice(5), calls: entry.notConnected, kind: 'not connected' },
  ]);
  return {
    // A fixed drawing size; the page scales the SVG to its column (viewBox).
    width: 720,
    height: 180,
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'day', type: 'ordinal', title: null, axis: { labelAngle: -60 } },
      y: { field: 'calls', type: 'quantitative', title: 'calls', stack: 'zero' },
      color: { field: 'kind', type: 'nominal', title: null, scale: { domain: ['connected', 'not connected'], range: ['#0b5cad', '#9aa7b4'] }, legend: { orient: 'top' } },
    },
    config: { font: 'sans-serif', view: { stroke: null } },
  };
}
