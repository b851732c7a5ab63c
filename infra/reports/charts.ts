import { parse as parseVega, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/**
 * Bar and line charts as SVG, by vega-lite (compiled to a vega spec) and vega's headless SVG renderer: no canvas,
 * no browser. Text is drawn with the PDF's font family (`Noto Sans`) and measured by vega's estimate, so labels in
 * Latin script fit; labels in Indic scripts appear in tables, not on chart axes.
 */
export interface ChartInput {
  title: string;
  mark: 'bar' | 'line';
  /** `x` is a category or an ISO date; `series` splits lines or stacks bars. */
  points: Array<{ x: string; y: number; series?: string }>;
  xTitle: string;
  yTitle: string;
  /** Dates on the x axis (a time axis); otherwise categories in the given order. */
  temporal?: boolean;
}

export const CHART_WIDTH = 460;
export const CHART_HEIGHT = 180;

export function chartSpec(chart: ChartInput): TopLevelSpec {
  const hasSeries = chart.points.some((point) => point.series !== undefined);
  const x = chart.temporal
    ? { field: 'x', type: 'temporal' as const, title: chart.xTitle, axis: { format: '%d %b', labelAngle: 0 } }
    : { field: 'x', type: 'nominal' as const, title: chart.xTitle, sort: null, axis: { labelAngle: -30, labelLimit: 90 } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    title: { text: chart.title, anchor: 'start', fontSize: 12 },
    background: 'white',
    config: { font: 'Noto Sans', axis: { labelFontSize: 9, titleFontSize: 10 }, legend: { labelFontSize: 9, titleFontSize: 10 } },
    data: { values: chart.points },
    mark: chart.mark === 'line' ? { type: 'line', point: chart.points.length <= 40 } : { type: 'bar' },
    encoding: {
      x,
      y: { field: 'y', type: 'quantitative', title: chart.yTitle },
      ...(hasSeries ? { color: { field: 'series', type: 'nominal', title: null } } : {}),
    },
  } as TopLevelSpec;
}

export async function chartSvg(chart: ChartInput): Promise<string> {
  const view = new View(parseVega(compile(chartSpec(chart)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
