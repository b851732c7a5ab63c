// The call-domain models of the scripts being called, built lazily and kept on disk: the first call of a script
// starts the build in a worker thread and is recognised with the stock model meanwhile (a call never waits for
// a model); later calls of the same script text use the built one. Keyed by the text itself (prompts, routes),
// so editing a script gives a new model and an unchanged script reuses its model across campaigns and calls.
// Bounded by size: at most `maxBytes` of model files (about 5 MB each) in the cache directory, least recently used
// evicted;
// one build at a time; a build over `budgetMs` is abandoned (and retried by a later call).
import { createHash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { Piscina } from 'piscina';
import type { Script } from '../../../domain/script-types.ts';
import type { CallDomainText } from './call-domain-corpus.ts';
import type { LanguageModelTask } from './language-model-worker.ts';

const TYPESCRIPT_WORKER = new URL('../../worker-threads/typescript-worker.mjs', import.meta.url).href;
const LANGUAGE_MODEL_WORKER = new URL('./language-model-worker.ts', import.meta.url).href;

const RETRY_AFTER_MS = 10 * 60_000;
const DEFAULT_MAX_BYTES = 192 * 1024 * 1024;

export interface CallDomainModelsOptions {
  cacheDirectory: string;
  /** Bytes of model files kept on disk; default 192 MiB (about 36 models). */
  maxBytes?: number;
  /** Longest a build may take; default 5 minutes (about 30 s on an idle 2-core machine, the first one more). */
  budgetMs?: number;
  domainWeight?: number;
  /** Where a failed build is reported; default console.warn. */
  warn?: (message: string) => void;
}

export class CallDomainModels {
  /** Built models, least recently used first: path and size on disk. */
  private readonly ready = new Map<string, { path: string; bytes: number }>();
  private readyBytes = 0;
  private readonly building = new Map<string, Promise<string | undefined>>();
  /** Texts whose build failed, and when: not retried for RETRY_AFTER_MS (a missing tool would fail every call). */
  private readonly failed = new Map<string, number>();
  private pool: Piscina | null = null;

  constructor(private readonly options: CallDomainModelsOptions) {}

  /** The model for these scripts if it is built; otherwise starts building it and answers undefined. */
  readyModelFor(scripts: readonly Script[]): string | undefined {
    const key = keyOf({ scripts });
    const model = this.ready.get(key);
    if (model !== undefined) {
      // Most recently used last.
      this.ready.delete(key);
      this.ready.set(key, model);
      return model.path;
    }
    void this.modelFor(scripts);
    return undefined;
  }

  /** The model for these scripts, built if needed (undefined when the build failed). */
  modelFor(scripts: readonly Script[]): Promise<string | undefined> {
    const text: CallDomainText = { scripts };
    const key = keyOf(text);
    const model = this.ready.get(key);
    if (model !== undefined) return Promise.resolve(model.path);
    const failedAt = this.failed.get(key);
    if (failedAt !== undefined && Date.now() - failedAt < RETRY_AFTER_MS) return Promise.resolve(undefined);
    let build = this.building.get(key);
    if (build === undefined) {
      build = this.build(key, text).finally(() => this.building.delete(key));
      this.building.set(key, build);
    }
    return build;
  }

  private async build(key: string, text: CallDomainText): Promise<string | undefined> {
    const budget = AbortSignal.timeout(this.options.budgetMs ?? 300_000);
    const task: LanguageModelTask = {
      text,
      options: { cacheDirectory: this.options.cacheDirectory, ...(this.options.domainWeight === undefined ? {} : { domainWeight: this.options.domainWeight }) },
    };
    try {
      const path = (await this.started().run(task, { signal: budget })) as string;
      const bytes = (await stat(path)).size;
      this.ready.set(key, { path, bytes });
      this.readyBytes += bytes;
      // The newest model stays even when it alone is over the bound.
      while (this.readyBytes > (this.options.maxBytes ?? DEFAULT_MAX_BYTES) && this.ready.size > 1) {
        const [oldestKey, oldest] = this.ready.entries().next().value as [string, { path: string; bytes: number }];
        this.ready.delete(oldestKey);
        this.readyBytes -= oldest.bytes;
        await rm(oldest.path, { force: true });
      }
      return path;
    } catch (error) {
      if (this.failed.size >= 1_000) this.failed.clear();
      this.failed.set(key, Date.now());
      (this.options.warn ?? console.warn)(`call-domain language model not built (stock model used): ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private started(): Piscina {
    return (this.pool ??= new Piscina({
      filename: TYPESCRIPT_WORKER,
      workerData: { module: LANGUAGE_MODEL_WORKER },
      minThreads: 0,
      maxThreads: 1,
      // The general model is only needed while building: let the thread (and its memory) go when idle.
      idleTimeout: 60_000,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 768 },
    }));
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }
}

function keyOf(text: CallDomainText): string {
  // Only what the corpus reads: the prompts and the routes' intents and keywords.
  const relevant = text.scripts.map((script) =>
    script.steps.map((step) => [step.say, (step.listen?.routes ?? []).map((route) => [route.intent, route.keywords ?? []])]),
  );
  return createHash('sha256').update(JSON.stringify(relevant)).digest('hex');
}
