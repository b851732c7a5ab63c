import type { Context } from 'hono';
import type { Principal } from '../context.ts';
import type { ApiClient } from './api-client.ts';
import type { Session } from './sessions.ts';
import type { Viewer } from './view.tsx';

/** Hono's environment of the dashboard's routes. */
export interface DashboardEnv {
  Variables: {
    session: Session;
    sessionId: string;
    principal: Principal;
    viewer: Viewer;
    api: ApiClient;
  };
}

export type DashboardContext = Context<DashboardEnv>;
