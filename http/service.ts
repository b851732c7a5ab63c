import { createDashboard } from './dashboard/app.tsx';
import { createHttpApp, type HttpApp, type HttpPorts } from './app.ts';
import type { HttpDependencies } from './dependencies.ts';
import { errorBody } from './errors.ts';

/** Paths the API answers; every other path is the dashboard's. */
const API_PATHS = /^\/(v1(\/|$)|health$|ready$|metrics$)/;
/** What a `worker` node (NODE_ROLE=worker) answers: the operations endpoints only. */
const OPERATIONS_PATHS = /^\/(health|ready|metrics)$/;

export interface Service {
  api: HttpApp;
  fetch(request: Request, env?: Parameters<HttpApp['fetch']>[1]): Response | Promise<Response>;
}

/**
 * The whole HTTP surface: the API under /v1 (and the operations endpoints), the dashboard everywhere else. The
 * dashboard reaches the API in process (dashboard/api-client.ts), never over the network.
 */
export function createService(ports: HttpPorts, overrides: Partial<HttpDependencies> = {}): Service {
  const api = createHttpApp(ports, overrides);
  const dashboard = createDashboard({ readDb: ports.readDb, clock: ports.clock, logger: ports.logger, fetchApi: (request) => api.fetch(request, undefined) });
  if (ports.node.role === 'worker') {
    return {
      api,
      fetch: (request, env) => {
        const path = new URL(request.url).pathname;
        if (OPERATIONS_PATHS.test(path)) return api.fetch(request, env);
        const body = errorBody('not_found', 'This node runs background work only (NODE_ROLE=worker): send API requests to a node whose role is api or all.', { path });
        return Response.json(body, { status: 404 });
      },
    };
  }
  return {
    api,
    fetch: (request, env) => (API_PATHS.test(new URL(request.url).pathname) ? api.fetch(request, env) : dashboard.fetch(request, env)),
  };
}
