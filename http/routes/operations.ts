import { z } from '@hono/zod-openapi';
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { ApiError } from '../errors.ts';
import type { EventStore } from '../../infra/eventstore/port.ts';
import type { ProjectionStatus } from '../../projections/runner.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import type { HttpMetrics } from '../metrics.ts';

/** `/ready` answers 503 when some projection is further behind the event store than this many events. */
export const READY_MAX_PROJECTION_LAG = 1_000;

const TAG = 'Operations';

const HealthSchema = z
  .object({
    status: z.literal('ok'),
    node_id: z.string().openapi({ description: 'This node\'s name (`NODE_ID`, else generated once and kept in `DATA_DIR/node-id`).' }),
    role: z.enum(['all', 'api', 'worker']).openapi({ description: '`NODE_ROLE` of this node.' }),
    leader: z.boolean().openapi({ description: 'Whether this node runs the singleton work (timers, dialing, deliveries) now: always true for a lone node; with `CLUSTER=true`, while it holds the leader lease.' }),
  })
  .openapi('Health');

const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    event_store: z.enum(['ok', 'unreachable']),
    max_projection_lag: z.int().openapi({ description: 'Events the slowest projection has yet to apply.' }),
    lag_threshold: z.int(),
    projections: z.array(z.object({ name: z.string(), position: z.int(), lag: z.int() })),
  })
  .openapi('Readiness');

const health = defineRoute(
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    tags: [TAG],
    summary: 'Liveness: the process is up, and which node answers',
    description: 'Always open (no token), for load balancers: answers while the process runs, whatever the event store does.',
    responses: { 200: { description: 'Up.', content: { 'application/json': { schema: HealthSchema } } } },
  },
  { public: true },
);

const ready = defineRoute(
  {
    method: 'get',
    path: '/ready',
    operationId: 'getReadiness',
    tags: [TAG],
    summary: 'Readiness: event store reachable and read models current',
    description: `503 when the event store does not answer or a projection is more than ${READY_MAX_PROJECTION_LAG} events behind. With \`METRICS_TOKEN\` set, needs \`Authorization: Bearer <METRICS_TOKEN>\` (else 401).`,
    responses: {
      200: { description: 'Ready.', content: { 'application/json': { schema: ReadinessSchema } } },
      503: { description: 'Not ready.', content: { 'application/json': { schema: ReadinessSchema } } },
    },
  },
  { public: true },
);

const metricsRoute = defineRoute(
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tags: [TAG],
    summary: 'Prometheus metrics',
    description: 'Request counts and latency by route pattern and status, projection lag, process-manager backlog, retries and dead letters, pending timers. With `METRICS_TOKEN` set, needs `Authorization: Bearer <METRICS_TOKEN>` (else 401).',
    responses: { 200: { description: 'Prometheus text format.', content: { 'text/plain': { schema: z.string() } } } },
  },
  { public: true },
);

/**
 * Health, readiness and metrics, outside `/v1` and without API keys (for orchestrators and scrapers). Readiness and
 * metrics tell about the service's insides (projection names, routes, backlogs): with `METRICS_TOKEN` set they need
 * it as a bearer token; liveness stays open for load balancers.
 */
/** Who answers `/health`: the node's name and role, and whether it leads now. */
export interface NodeIdentity {
  id: string;
  role: 'all' | 'api' | 'worker';
  leading(): boolean;
}

export function operationsRoutes(
  { store, projections, node, metricsToken }: { store: Pick<EventStore, 'ping'>; projections: { status(): Promise<ProjectionStatus[]> }; node: NodeIdentity; metricsToken?: string },
  metrics: HttpMetrics,
) {
  const router = createRouter();
  const expected = metricsToken === undefined ? null : Buffer.from(`Bearer ${metricsToken}`);
  const requireToken = (c: Context) => {
    if (expected === null) return;
    const given = Buffer.from(c.req.header('authorization') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError('unauthorized', 'This endpoint needs Authorization: Bearer <METRICS_TOKEN>.');
    }
  };

  router.openapi(health, (c) => c.json({ status: 'ok' as const, node_id: node.id, role: node.role, leader: node.leading() }, 200));

  router.openapi(ready, async (c) => {
    requireToken(c);
    const storeOk = await store.ping().catch(() => false);
    const statuses = storeOk ? await projections.status().catch(() => []) : [];
    const maxLag = statuses.reduce((max, projection) => Math.max(max, projection.lag), 0);
    const isReady = storeOk && maxLag <= READY_MAX_PROJECTION_LAG;
    const body = {
      status: isReady ? ('ready' as const) : ('not_ready' as const),
      event_store: storeOk ? ('ok' as const) : ('unreachable' as const),
      max_projection_lag: maxLag,
      lag_threshold: READY_MAX_PROJECTION_LAG,
      projections: statuses.map(({ name, position, lag }) => ({ name, position, lag })),
    };
    return isReady ? c.json(body, 200) : c.json(body, 503);
  });

  router.openapi(metricsRoute, async (c) => {
    requireToken(c);
    return c.text(await metrics.text(), 200, { 'Content-Type': metrics.contentType });
  });

  return router;
}
