import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { performance } from 'node:perf_hooks';
import { callsByDayChart } from '../../../http/dashboard/chart.ts';
import { createReportPool } from '../../../processes/reports/report-pool.ts';

test('a dashboard chart is drawn on a report thread: SVG back, the event loop left alone while it draws', async () => {
  const pool = createReportPool({ threads: 1, budgetMs: 60_000, readModelPath: '/nonexistent/read-models.db' });
  try {
    const days = Array.from({ length: 30 }, (_, index) => ({ day: `2026-03-${String(index + 1).padStart(2, '0')}`, connected: index % 5, notConnected: 2 }));
    await pool.chart('ws_a', callsByDayChart(days)); // starts the thread (not measured)
    const before = performance.eventLoopUtilization();
    const svg = await pool.chart('ws_a', callsByDayChart(days));
    const busy = performance.eventLoopUtilization(before);
    assert.match(svg, /^<svg /);
    assert.match(svg, /not connected/, 'the legend names the series');
    // Drawing in process keeps the loop busy for the whole draw; from a thread the loop only receives the text.
    assert.ok(busy.utilization < 0.5, `event loop utilisation while the thread drew: ${busy.utilization}`);
  } finally {
    await pool.close();
  }
});

test.run();
