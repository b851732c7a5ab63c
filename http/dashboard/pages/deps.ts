import type { Hono } from 'hono';
import type { Clock } from '../../../infra/clock/port.ts';
import type { DashboardEnv } from '../env.ts';

/** What page modules are built from besides the API: the service clock ("today" follows a manual clock too). */
export interface PageDeps {
  clock: Clock;
}

export type DashboardApp = Hono<DashboardEnv>;
