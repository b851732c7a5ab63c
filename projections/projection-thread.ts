import { Worker } from 'node:worker_threads';
import type { EventStore } from '../infra/eventstore/port.ts';
import type { Logger } from '../infra/logger.ts';
import type { ReadModelLane } from './index.ts';
import { AppliedPosition } from './read-model-progress.ts';
import type { Projections, ProjectionRunner, ProjectionStatus } from './runner.ts';

const RESTART_DELAY_MS = 1_000;
const STOP_GRACE_MS = 10_000;
const HEAD_WAIT_MS = 1_000;

/** Messages between the server's thread and the projection worker (projection-worker.ts). */
export type ToProjectionWorker = { type: 'stop' };
export type FromProjectionWorker = { type: 'applied'; position: number } | { type: 'stopped' };

export interface ProjectionThreadOptions {
  /** A file: URL of the bootstrap that runs the worker module (infra/worker-threads/typescript-worker.mjs). */
  bootstrap: string;
  /** A file: URL of the TypeScript module the worker runs (projection-worker.ts). */
  workerModule: string;
  /** What the worker module is given (its `workerData.settings`): the server's configuration. */
  settings: unknown;
  /** Which read models the worker applies (its `workerData.lane`; projections/index.ts): read.db's by default. */
  lane?: ReadModelLane;
  logger?: Logger;
}

/**
 * Applies the events to the read models on a worker thread with its own connections to the event store and to
 * read.db, so that applying one workspace's large events (a 4,000-segment transcript indexed for search, a campaign
 * of 20,000 contacts) never holds the event loop that serves every workspace's requests (issue 12).
 *
 * This thread keeps what needs no worker: the migrations and version checks (done by `runner` before the worker
 * starts, so every table exists when the routes prepare their queries), `status`, and the operator's `catchUp` and
 * `rebuild`, which may run beside the worker as they run beside a server from the CLI (each transaction re-reads the
 * checkpoints). It tells the worker when the store's head moves (a worker cannot hear this thread's appends), and
 * learns from it what is applied: what read-your-writes waits on. A worker that dies is started again.
 */
export class ProjectionThread implements Projections {
  private readonly applied: AppliedPosition;
  private worker: Worker | null = null;
  private stopping = false;
  private notifier: AbortController | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  /** The store's head as this thread last saw it, shared with the worker, which waits on it while it has nothing to apply. */
  private readonly head = new BigInt64Array(new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT));
  /** Ends the in-thread runner that applies events while the worker starts (compiling its modules takes seconds). */
  private handOver: (() => Promise<void>) | null = null;

  constructor(
    private readonly runner: ProjectionRunner,
    private readonly store: Pick<EventStore, 'waitForEvents' | 'headPosition'>,
    private readonly options: ProjectionThreadOptions,
  ) {
    this.applied = new AppliedPosition(runner.position);
  }

  get projections(): ProjectionRunner['projections'] {
    return this.runner.projections;
  }

  get position(): number {
    return this.applied.position;
  }

  /** Whether the worker applies the events (it has started and this thread's runner has handed over; tests). */
  get applyingOnWorker(): boolean {
    return this.worker !== null && this.handOver === null;
  }

  start(): void {
    if (this.worker || this.notifier) return;
    this.stopping = false;
    // Until the worker reports, this thread applies: a server starts serving as fast as before, and recovery's wait
    // for the read models does not wait for the worker's start. Both may apply at once for a moment; each
    // transaction re-reads the checkpoints, so neither applies an event twice.
    this.runner.start();
    const unsubscribe = this.runner.onProgress((position) => this.advance(position));
    this.handOver = async () => {
      this.handOver = null;
      unsubscribe();
      await this.runner.stop();
    };
    this.spawn();
    this.notifier = new AbortController();
    void this.notifyHead(this.notifier.signal);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.handOver?.();
    this.notifier?.abort();
    this.notifier = null;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' } satisfies ToProjectionWorker);
    const grace = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    await exited;
    clearTimeout(grace);
  }

  waitForPosition(position: number, timeoutMs?: number): Promise<boolean> {
    return this.applied.waitForPosition(position, timeoutMs);
  }

  status(): Promise<ProjectionStatus[]> {
    return this.runner.status();
  }

  async catchUp(): Promise<void> {
    await this.runner.catchUp();
    this.advance(this.runner.position);
  }

  async rebuild(name: string): Promise<void> {
    await this.runner.rebuild(name);
  }

  /** Two appliers may report (this thread's while the worker starts, the worker's): the position only moves forward. */
  private advance(position: number): void {
    if (position > this.applied.position) this.applied.set(position);
  }

  private spawn(): void {
    const worker = new Worker(new URL(this.options.bootstrap), {
      workerData: { module: this.options.workerModule, settings: this.options.settings, lane: this.options.lane ?? 'read', head: this.head },
      // The worker compiles TypeScript itself; the parent's flags (a loader, a profiler) are not its business.
      execArgv: [],
    });
    this.worker = worker;
    worker.on('message', (message: FromProjectionWorker) => {
      if (message.type !== 'applied') return;
      this.advance(message.position);
      void this.handOver?.();
    });
    worker.on('error', (error) => this.options.logger?.error({ err: error }, 'projection thread failed'));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.stopping) return;
      this.options.logger?.error({ code }, 'projection thread exited; starting it again');
      this.restartTimer = setTimeout(() => {
        if (!this.stopping) this.spawn();
      }, RESTART_DELAY_MS);
    });
  }

  /** Tells the worker each time the store's head moves: it then applies at once instead of polling the file. */
  private async notifyHead(signal: AbortSignal): Promise<void> {
    let told = 0;
    while (!signal.aborted) {
      try {
        await this.store.waitForEvents(told, HEAD_WAIT_MS, signal);
        const head = await this.store.headPosition();
        if (head > told) {
          // Wakes the worker only if it is waiting; a worker busy applying reads past this head on its own.
          Atomics.store(this.head, 0, BigInt(head));
          Atomics.notify(this.head, 0);
          told = head;
        }
      } catch (error) {
        this.options.logger?.warn({ err: error }, 'could not read the event store head for the projection thread');
        await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS));
      }
    }
  }
}
