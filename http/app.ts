import { OpenAPIHono } from '@hono/zod-openapi';
import { readFileSync } from 'node:fs';
import type { Runtime } from '../composition.ts';
import { ReadModelVersion } from '../projections/read-model-version.ts';
import type { AppEnv } from './context.ts';
import { validationHook } from './define-route.ts';
import { defaultDependencies, type HttpDependencies } from './dependencies.ts';
import { ApiError, createErrorHandler, errorResponse } from './errors.ts';
import { IdempotencyStore } from './idempotency/store.ts';
import { HttpMetrics } from './metrics.ts';
import { Authenticator } from './middleware/auth.ts';
import { requestGate } from './middleware/gate.ts';
import { Idempotency } from './middleware/idempotency.ts';
import { WorkspaceRateLimiter } from './middleware/rate-limit.ts';
import { requestContext } from './middleware/request-context.ts';
import { RouteResolver } from './middleware/resolve-route.ts';
import { apiReferenceRoutes } from './openapi.ts';
import { apiKeyRoutes } from './routes/api-keys.ts';
import { callRoutes } from './routes/calls.ts';
import { operationsRoutes } from './routes/operations.ts';
import { recordingRoutes } from './routes/recordings.ts';
import { scriptRoutes } from './routes/scripts.ts';
import { callTranscriptRoutes } from './routes/call-transcripts.ts';
import { qaScorecardRoutes } from './routes/qa-scorecards.ts';
import { transcriptionRoutes } from './routes/transcription.ts';
import { campaignRoutes } from './routes/campaigns.ts';
import { manualClockOf, sandboxClockRoutes } from './routes/sandbox-clock.ts';
import { suppressionRoutes } from './routes/suppressions.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export type HttpApp = OpenAPIHono<AppEnv>;

const packageVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The HTTP API. Every request goes through the same chain, so a new resource gets all of it by being mounted:
 *
 *   request id + log line + metrics → key-in-URL refusal → route resolution (404 / 405) → bearer auth (401)
 *   → workspace rate limit (429, X-RateLimit-*) → scope (403) → JSON body (400 / 413) → Idempotency-Key (POST)
 *   → the route's zod validation (400) → handler
 *
 * and every error, wherever it is thrown, leaves through the one error handler (errors.ts).
 * To add a resource: write `routes/<resource>.ts` returning a router of `defineRoute`s, and mount it below.
 */
export function createHttpApp(runtime: Runtime, overrides: Partial<HttpDependencies> = {}): HttpApp {
  const dependencies: HttpDependencies = { ...defaultDependencies, ...overrides };
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const metrics = new HttpMetrics(runtime);

  app.onError(createErrorHandler(runtime.logger));
  // Route resolution answers unknown paths first; this only catches what slips past it.
  app.notFound((c) => errorResponse(c, new ApiError('not_found', `No endpoint ${c.req.path}.`, { path: c.req.path })));

  app.use('*', requestContext(runtime.logger, metrics));
  // The rest of the chain, one step after the other in one middleware (middleware/gate.ts).
  app.use(
    '*',
    requestGate({
      routes: new RouteResolver(app),
      readModels: new ReadModelVersion(runtime.readDb),
      authenticator: new Authenticator(runtime.readDb, runtime.clock, runtime.logger),
      rateLimiter: new WorkspaceRateLimiter(runtime.readDb),
      idempotency: new Idempotency(new IdempotencyStore(runtime.readDb), runtime.clock),
    }),
  );

  app.route('/', operationsRoutes(runtime, metrics));
  app.route('/v1', apiKeyRoutes(runtime));
  app.route('/v1', scriptRoutes(runtime, dependencies));
  app.route('/v1', transcriptionRoutes(runtime));
  app.route('/v1', qaScorecardRoutes(runtime));
  app.route('/v1', callTranscriptRoutes(runtime));
  app.route('/v1', campaignRoutes(runtime));
  app.route('/v1', callRoutes(runtime));
  app.route('/v1', suppressionRoutes(runtime));
  app.route('/v1', recordingRoutes(runtime));
  // Only on a manual clock (CLOCK=manual); otherwise the path does not exist.
  const manualClock = runtime.config.CLOCK === 'manual' ? manualClockOf(runtime) : null;
  if (manualClock) app.route('/v1', sandboxClockRoutes(manualClock));
  app.route('/v1', webhookRoutes(runtime));
  // Last: the document describes every route mounted before it.
  app.route('/v1', apiReferenceRoutes(app, packageVersion));
  return app;
}
