import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type Runtime, type RuntimePorts } from '../../composition.ts';
import { loadConfig } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import type { ProcessManager } from '../../processes/process-manager.ts';
import type { ProcessRunnerOptions } from '../../processes/runner.ts';

/** A runtime on a temporary DATA_DIR (or a given one, to simulate a restart), with a manual clock by default. */
export function testRuntime(options: {
  dataDir?: string;
  environment?: Record<string, string>;
  processes?: (ports: RuntimePorts) => ProcessManager[];
  processRunner?: ProcessRunnerOptions;
  /** Apply events on the projection thread, as the server does. */
  projectionThread?: boolean;
} = {}): { runtime: Runtime; dataDir: string; remove(): void } {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'runtime-'));
  // Sandbox calls end at once on the clock (SANDBOX_SPEED): a test that wants them to take their time sets it to 1.
  const config = loadConfig({ DATA_DIR: dataDir, CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z', EVENTSTORE_SYNC: 'normal', SANDBOX_SPEED: '1000000', ...options.environment });
  const runtime = createRuntime(config, createLogger('silent'), options.processes, { processes: options.processRunner, projectionThread: options.projectionThread });
  return { runtime, dataDir, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** `everyMs` between checks (default 20): a check that calls the API for long should ask less often than its rate limit. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = 'condition', everyMs = 20): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
