import type { Database } from 'better-sqlite3';
import type { Hono } from 'hono';
import type { Clock } from '../../../infra/clock/port.ts';
import type { DrawChart } from '../chart.ts';
import type { DashboardEnv } from '../env.ts';

/**
 * What page modules are built from besides the API: the service clock ("today" follows a manual clock too) and
 * the read models, which only the live progress stream reads directly (the same read model GET /v1/campaigns/{id}
 * answers from) so that an open page does not spend its workspace's rate limit once a second.
 */
export interface PageDeps {
  clock: Clock;
  readDb: Database;
  /** Charts, drawn off the event loop (chart.ts). */
  drawChart: DrawChart;
}

export type DashboardApp = Hono<DashboardEnv>;
