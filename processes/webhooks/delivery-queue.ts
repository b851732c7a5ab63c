/**
 * Runs delivery attempts with bounded concurrency, in total and per webhook, taking webhooks in turn: a receiver
 * that is slow or dead holds at most `perWebhook` slots (each up to the 10 s deadline) while the other webhooks
 * keep the rest. A delivery is queued at most once at a time; asked for again while it runs (a replay, a timer), it
 * runs once more afterwards, and the work itself decides whether an attempt is still due.
 */
export interface QueueLimits {
  total: number;
  perWebhook: number;
}

export const DEFAULT_QUEUE_LIMITS: QueueLimits = { total: 64, perWebhook: 8 };

type Work = (deliveryId: string, webhookId: string) => Promise<void>;

export class DeliveryQueue {
  private readonly waiting = new Map<string, string[]>();
  /** Webhooks with waiting deliveries, in turn order. */
  private ring: string[] = [];
  private readonly active = new Map<string, number>();
  private readonly state = new Map<string, 'queued' | 'running' | 'again'>();
  private running = 0;
  private stopped = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly work: Work,
    private readonly limits: QueueLimits = DEFAULT_QUEUE_LIMITS,
    private readonly onError: (error: unknown, deliveryId: string) => void = () => undefined,
  ) {}

  enqueue(webhookId: string, deliveryId: string): void {
    if (this.stopped) return;
    const current = this.state.get(deliveryId);
    if (current === 'queued' || current === 'again') return;
    if (current === 'running') {
      this.state.set(deliveryId, 'again');
      return;
    }
    this.state.set(deliveryId, 'queued');
    this.push(webhookId, deliveryId);
    this.pump();
  }

  /** Deliveries queued or running. */
  get size(): number {
    return this.state.size;
  }

  /** Resolves when nothing is queued or running. */
  idle(): Promise<void> {
    if (this.state.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops what waits and resolves when the attempts under way have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const queue of this.waiting.values()) for (const deliveryId of queue) this.state.delete(deliveryId);
    this.waiting.clear();
    this.ring = [];
    await this.idle();
  }

  private push(webhookId: string, deliveryId: string): void {
    let queue = this.waiting.get(webhookId);
    if (!queue) {
      queue = [];
      this.waiting.set(webhookId, queue);
      this.ring.push(webhookId);
    }
    queue.push(deliveryId);
  }

  private pump(): void {
    while (this.running < this.limits.total && this.ring.length > 0) {
      const index = this.ring.findIndex((webhookId) => (this.active.get(webhookId) ?? 0) < this.limits.perWebhook);
      if (index === -1) return;
      const webhookId = this.ring[index]!;
      const queue = this.waiting.get(webhookId)!;
      const deliveryId = queue.shift()!;
      // Move this webhook to the back of the turn order (or out of it when it has nothing left).
      this.ring.splice(index, 1);
      if (queue.length > 0) this.ring.push(webhookId);
      else this.waiting.delete(webhookId);
      this.start(webhookId, deliveryId);
    }
  }

  private start(webhookId: string, deliveryId: string): void {
    this.running++;
    this.active.set(webhookId, (this.active.get(webhookId) ?? 0) + 1);
    this.state.set(deliveryId, 'running');
    void this.work(deliveryId, webhookId)
      .catch((error: unknown) => this.onError(error, deliveryId))
      .finally(() => {
        this.running--;
        const left = (this.active.get(webhookId) ?? 1) - 1;
        if (left === 0) this.active.delete(webhookId);
        else this.active.set(webhookId, left);
        const again = this.state.get(deliveryId) === 'again';
        this.state.delete(deliveryId);
        if (again && !this.stopped) this.enqueue(webhookId, deliveryId);
        this.pump();
        if (this.state.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
  }
}
