/**
 * The HTTP app in-process (`app.request(...)`), over a runtime on a temporary DATA_DIR with its background work
 * running: for tests that need to reach inside (inject a dependency, add a failing route, walk `app.routes`).
 * End-to-end behaviour is tested over the real server (server.ts).
 */
import type { Runtime } from '../../composition.ts';
import { apiKeyDecider, apiKeyStream, type ApiKeyScope } from '../../domain/api-key.ts';
import { workspaceDecider, workspaceStream } from '../../domain/workspace.ts';
import { createHttpApp, type HttpApp } from '../../http/app.ts';
import type { HttpDependencies } from '../../http/dependencies.ts';
import { hashApiKeySecret, newApiKeySecret } from '../../infra/crypto/api-key-secret.ts';
import { newId } from '../../infra/ids.ts';
import { testRuntime } from './runtime.ts';

export interface InProcessApp {
  app: HttpApp;
  runtime: Runtime;
  /** A workspace and a key of the given scope, written through the command handler. */
  workspace(scope?: ApiKeyScope): Promise<{ workspaceId: string; keyId: string; key: string }>;
  close(): Promise<void>;
}

export async function inProcessApp(overrides: Partial<HttpDependencies> = {}, configure?: (app: HttpApp) => void): Promise<InProcessApp> {
  const { runtime, remove } = testRuntime({ environment: { CLOCK: 'system' } });
  await runtime.start();
  const app = createHttpApp(runtime, overrides);
  configure?.(app);
  const context = { workspaceId: null, actor: 'test', now: new Date() };
  return {
    app,
    runtime,
    async workspace(scope: ApiKeyScope = 'Admin') {
      const now = runtime.clock.now();
      const workspaceId = newId('ws', now);
      const keyId = newId('key', now);
      const key = newApiKeySecret();
      await runtime.commands.handle(workspaceDecider, workspaceStream(workspaceId), { type: 'CreateWorkspace', workspaceId, name: 'Test', now }, { ...context, workspaceId });
      const result = await runtime.commands.handle(
        apiKeyDecider,
        apiKeyStream(keyId),
        { type: 'CreateApiKey', keyId, workspaceId, name: 'test', scope, secretHash: hashApiKeySecret(key), now },
        { ...context, workspaceId },
      );
      await runtime.projections.waitForPosition(result.position);
      return { workspaceId, keyId, key };
    },
    async close() {
      await runtime.close();
      remove();
    },
  };
}
