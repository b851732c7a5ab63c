import { complianceRoutes } from './routes/compliance.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
import { readFileSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { Commands } from '../commands/handler.ts';
import type { RecordingLinks } from '../infra/blobs/recording-links.ts';
import type { ReportLinks } from '../infra/blobs/report-links.ts';
import type { BlobStore } from '../infra/blobs/port.ts';
import type { Clock } from '../infra/clock/port.ts';
import type { Config } from '../infra/config.ts';
import type { SecretBox } from '../infra/crypto/secret-box.ts';
import type { EventStore } from '../infra/eventstore/port.ts';
import type { Logger } from '../infra/logger.ts';
import type { TranscriptSearcher } from '../infra/search/port.ts';
import type { ProcessStatus } from '../processes/runner.ts';
import type { ReadModelProgress } from '../projections/read-model-progress.ts';
import type { ProjectionStatus } from '../projections/runner.ts';
import { ReadModelVersion } from '../projections/read-model-version.ts';
import { readYourWrites } from './read-your-writes.ts';
import type { AppEnv } from './context.ts';
import { validationHook } from './define-route.ts';
import { defaultDependencies, type HttpDependencies } from './dependencies.ts';
import { ApiError, createErrorHandler, errorResponse } from './errors.ts';
import { IdempotencyStore } from './idempotency/store.ts';
import { eventStoreKeyClaims } from './idempotency/cluster-claims.ts';
import { HttpMetrics } from './metrics.ts';
import { Authenticator } from './middleware/auth.ts';
import { requestGate } from './middleware/gate.ts';
import { Idempotency } from './middleware/idempotency.ts';
import { LargeBodyTurns } from './middleware/large-body-turns.ts';
import { WorkspaceRateLimiter } from './middleware/rate-limit.ts';
import { requestContext } from './middleware/request-context.ts';
import { RouteResolver } from './middleware/resolve-route.ts';
import { apiReferenceRoutes } from './openapi.ts';
import { analyticsSearchRoutes } from './routes/analytics-search.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { callRoutes } from './routes/calls.ts';
import { operationsRoutes, type NodeIdentity } from './routes/operations.ts';
import { recordingRoutes } from './routes/recordings.ts';
import { reportRoutes } from './routes/reports.ts';
import { scriptRoutes } from './routes/scripts.ts';
import { callTranscriptRoutes } from './routes/call-transcripts.ts';
import { qaScorecardRoutes } from './routes/qa-scorecards.ts';
import { agentRoutes } from './routes/agents.ts';
import { workspaceRoutes } from './routes/workspace.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { transcriptionRoutes } from './routes/transcription.ts';
import { campaignRoutes } from './routes/campaigns.ts';
import { manualClockOf, sandboxClockRoutes } from './routes/sandbox-clock.ts';
import { suppressionRoutes } from './routes/suppressions.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export type HttpApp = OpenAPIHono<AppEnv>;

/** Everything the HTTP API is built from; each route module receives only its part. */
export interface HttpPorts {
  config: Pick<Config, 'ALLOW_PRIVATE_TARGETS' | 'METRICS_TOKEN' | 'SMTP_URL' | 'CLUSTER'>;
  logger: Logger;
  /** A manual clock (CLOCK=manual) also mounts POST /v1/sandbox/clock. */
  clock: Clock;
  commands: Commands;
  readDb: Database;
  stateDb: Database;
  projections: ReadModelProgress & { status(): Promise<ProjectionStatus[]> };
  processes: { status(): Promise<ProcessStatus[]> };
  store: Pick<EventStore, 'ping'>;
  /** This node (GET /health); a `worker` node serves only the operations endpoints (service.ts). */
  node: NodeIdentity;
  blobs: BlobStore;
  recordingLinks: RecordingLinks;
  reportLinks: ReportLinks;
  secrets: SecretBox;
  transcriptSearch: TranscriptSearcher;
}

const packageVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The HTTP API. Every request goes through the same chain, so a new resource gets all of it by being mounted:
 *
 *   request id + log line + metrics → key-in-URL refusal → route resolution (404 / 405) → bearer auth (401)
 *   → workspace rate limit (429, X-RateLimit-*) → scope (403) → a large body's turn → JSON body (400 / 413)
 *   → Idempotency-Key (POST)
 *   → the route's zod validation (400) → handler
 *
 * and every error, wherever it is thrown, leaves through the one error handler (errors.ts).
 * To add a resource: write `routes/<resource>.ts` returning a router of `defineRoute`s, and mount it below.
 */
export function createHttpApp(ports: HttpPorts, overrides: Partial<HttpDependencies> = {}): HttpApp {
  const { config, logger, clock, commands, readDb, stateDb, projections, blobs, recordingLinks, secrets } = ports;
  const dependencies: HttpDependencies = { ...defaultDependencies, ...overrides };
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const largeBodies = new LargeBodyTurns();
  const metrics = new HttpMetrics({ ...ports, largeBodies });
  const resources = { commands, clock, readDb, readYourWrites: readYourWrites(projections, logger) };
  const allowPrivateTargets = config.ALLOW_PRIVATE_TARGETS;

  app.onError(createErrorHandler(logger));
  // Route resolution answers unknown paths first; this only catches what slips past it.
  app.notFound((c) => errorResponse(c, new ApiError('not_found', `No endpoint ${c.req.path}.`, { path: c.req.path })));

  app.use('*', requestContext(logger, metrics));
  // The rest of the chain, one step after the other in one middleware (middleware/gate.ts).
  app.use(
    '*',
    requestGate({
      routes: new RouteResolver(app),
      readModels: new ReadModelVersion(readDb),
      authenticator: new Authenticator(readDb, clock, logger),
      rateLimiter: new WorkspaceRateLimiter(readDb),
      largeBodies,
      // In a cluster the first claim of a key wins on every node (idempotency/cluster-claims.ts).
      idempotency: new Idempotency(new IdempotencyStore(stateDb), clock, undefined, config.CLUSTER ? eventStoreKeyClaims(commands) : null),
    }),
  );

  app.route('/', operationsRoutes({ ...ports, metricsToken: config.METRICS_TOKEN }, metrics));
  app.route('/v1', apiKeyRoutes(resources));
  app.route('/v1', scriptRoutes(resources, dependencies));
  app.route('/v1', transcriptionRoutes({ ...resources, allowPrivateTargets }));
  app.route('/v1', qaScorecardRoutes(resources));
  app.route('/v1', callTranscriptRoutes(resources));
  app.route('/v1', campaignRoutes(resources));
  app.route('/v1', callRoutes({ ...resources, recordingLinks }));
  app.route('/v1', suppressionRoutes(resources));
  app.route('/v1', agentRoutes(resources));
  app.route('/v1', workspaceRoutes(resources));
  app.route('/v1', analyticsRoutes(resources));
  app.route('/v1', complianceRoutes(resources));
  app.route('/v1', recordingRoutes({ readDb, blobs, recordingLinks }));
  app.route('/v1', analyticsSearchRoutes({ transcriptSearch: ports.transcriptSearch, readDb }));
  app.route('/v1', reportRoutes({ ...resources, blobs, reportLinks: ports.reportLinks, mailConfigured: config.SMTP_URL !== undefined }));
  // Only on a manual clock (CLOCK=manual); otherwise the path does not exist.
  const manualClock = manualClockOf(clock);
  if (manualClock) app.route('/v1', sandboxClockRoutes(manualClock));
  app.route('/v1', webhookRoutes({ ...resources, allowPrivateTargets, secrets }));
  // Last: the document describes every route mounted before it.
  app.route('/v1', apiReferenceRoutes(app, packageVersion));
  return app;
}
