import type { Logger } from '../../infra/logger.ts';
import { ClaimLost, type ClaimedWork, type WorkQueue } from '../../infra/work-queue/port.ts';

/** What a handler makes of an item: done, try again later (or park once attempts are spent), or set aside. */
export type WorkOutcome = { kind: 'ack' } | { kind: 'nack'; reason: string; retryAfterMs?: number } | { kind: 'park'; reason: string };

export interface QueueConsumerOptions {
  queue: string;
  /** This node's name in the claims. */
  consumer: string;
  /** Items worked on at once by this node. */
  concurrency: number;
  /** Longest sleep between looks when nothing happens (claims of dead nodes expire without an event). */
  idleWaitMs?: number;
}

/**
 * One node's competing consumer of a work queue: claims as many items as it has room for, runs the handler on each,
 * extends each claim every third of the claim timeout while the handler runs (so a long call keeps its claim, and
 * a node that dies stops extending and loses it), and acks, nacks or parks it by the handler's answer. A handler
 * that throws is a nack with a short back-off. An item whose claim was lost meanwhile (this node stalled past the
 * timeout and another took it over) is logged and left to its new holder.
 */
export class QueueConsumer {
  private controller = new AbortController();
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private wake: (() => void) | null = null;

  constructor(
    private readonly ports: { queue: WorkQueue; logger: Logger },
    private readonly options: QueueConsumerOptions,
    private readonly handler: (item: ClaimedWork) => Promise<WorkOutcome>,
  ) {}

  get busy(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.loop) return;
    this.controller = new AbortController();
    this.loop = this.run(this.controller.signal);
  }

  /** Stops claiming, and waits for the items in flight to finish and be acknowledged. */
  async stop(): Promise<void> {
    this.controller.abort();
    this.wake?.();
    await this.loop;
    this.loop = null;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(signal: AbortSignal): Promise<void> {
    const { queue, logger } = this.ports;
    const { concurrency, idleWaitMs = 1_000 } = this.options;
    while (!signal.aborted) {
      try {
        const room = concurrency - this.inFlight.size;
        const claimed = room > 0 ? await queue.claim(this.options.queue, { consumer: this.options.consumer, max: room }) : [];
        for (const item of claimed) this.track(this.work(item));
        if (signal.aborted) return;
        if (room > 0 && claimed.length === room) continue;
        // Full: wait for an item to finish. Otherwise: for new work, a back-off ending or a claim expiring.
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          if (this.inFlight.size >= concurrency) return;
          void queue.waitForWork(this.options.queue, idleWaitMs, signal).then(resolve, resolve);
        });
        this.wake = null;
      } catch (error) {
        logger.warn({ err: error, queue: this.options.queue }, 'work queue round failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, idleWaitMs));
      }
    }
  }

  private track(work: Promise<void>): void {
    const settled: Promise<void> = work
      .catch((error: unknown) => this.ports.logger.error({ err: error, queue: this.options.queue }, 'could not record the outcome of a work item; its claim expires and it is tried again'))
      .finally(() => {
        this.inFlight.delete(settled);
        this.wake?.();
      });
    this.inFlight.add(settled);
  }

  private async work(item: ClaimedWork): Promise<void> {
    const { queue, logger } = this.ports;
    let lost = false;
    const keep = setInterval(() => {
      queue.extend(item).catch((error: unknown) => {
        if (error instanceof ClaimLost) lost = true;
        logger.warn({ err: error, queue: item.queue, item: item.id }, 'could not extend a work claim');
      });
    }, Math.max(50, Math.floor(queue.claimTimeoutMs / 3)));
    let outcome: WorkOutcome;
    try {
      outcome = await this.handler(item);
    } catch (error) {
      logger.warn({ err: error, queue: item.queue, item: item.id, attempt: item.attempt }, 'work item failed; it is tried again');
      outcome = { kind: 'nack', reason: error instanceof Error ? error.message : String(error), retryAfterMs: 1_000 };
    } finally {
      clearInterval(keep);
    }
    try {
      if (outcome.kind === 'ack') await queue.ack(item);
      else if (outcome.kind === 'nack') await queue.nack(item, outcome);
      else await queue.park(item, outcome.reason);
    } catch (error) {
      if (!(error instanceof ClaimLost)) throw error;
      logger.warn({ queue: item.queue, item: item.id, lost_before: lost }, 'a work claim expired while this node worked on it; its new holder finishes it');
    }
  }
}
