import { DEFAULT_QUEUE_LIMITS, nextTurn, type QueueLimits } from './delivery-turns.ts';

export { DEFAULT_QUEUE_LIMITS, type QueueLimits } from './delivery-turns.ts';

type Work = (deliveryId: string, webhookId: string) => Promise<void>;

interface WorkspaceTurn {
  readonly workspaceId: string;
  /** Its webhooks with deliveries waiting, in turn order. */
  webhookIds: string[];
}

/**
 * Runs delivery attempts with bounded concurrency, in total, per workspace and per webhook, taking workspaces in
 * turn and then the webhooks of each (the choice: `nextTurn`, delivery-turns.ts): receivers that are slow or dead
 * hold at most `perWebhook` slots each and `perWorkspace` for their whole workspace (each up to the 10 s
 * deadline), while the other workspaces keep the rest. A delivery is queued at most once at a time; asked for
 * again while it runs (a replay, a timer), it runs once more afterwards, and the work itself decides whether an
 * attempt is still due.
 */
export class DeliveryQueue {
  /** Waiting deliveries by webhook, in order. */
  private readonly waiting = new Map<string, string[]>();
  /** Workspaces with waiting deliveries, in turn order. */
  private ring: WorkspaceTurn[] = [];
  private readonly inRing = new Map<string, WorkspaceTurn>();
  private readonly running = { total: 0, byWorkspace: new Map<string, number>(), byWebhook: new Map<string, number>() };
  private readonly state = new Map<string, 'queued' | 'running' | 'again'>();
  private stopped = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly work: Work,
    private readonly limits: QueueLimits = DEFAULT_QUEUE_LIMITS,
    private readonly onError: (error: unknown, deliveryId: string) => void = () => undefined,
  ) {}

  enqueue(workspaceId: string, webhookId: string, deliveryId: string): void {
    if (this.stopped) return;
    const current = this.state.get(deliveryId);
    if (current === 'queued' || current === 'again') return;
    if (current === 'running') {
      this.state.set(deliveryId, 'again');
      return;
    }
    this.state.set(deliveryId, 'queued');
    this.push(workspaceId, webhookId, deliveryId);
    this.pump();
  }

  /** Deliveries queued or running. */
  get size(): number {
    return this.state.size;
  }

  /** Attempts under way, in total and for one workspace. */
  runningFor(workspaceId?: string): number {
    return workspaceId === undefined ? this.running.total : (this.running.byWorkspace.get(workspaceId) ?? 0);
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
    this.inRing.clear();
    await this.idle();
  }

  private push(workspaceId: string, webhookId: string, deliveryId: string): void {
    let queue = this.waiting.get(webhookId);
    if (!queue) {
      queue = [];
      this.waiting.set(webhookId, queue);
      let turn = this.inRing.get(workspaceId);
      if (!turn) {
        turn = { workspaceId, webhookIds: [] };
        this.inRing.set(workspaceId, turn);
        this.ring.push(turn);
      }
      turn.webhookIds.push(webhookId);
    }
    queue.push(deliveryId);
  }

  private pump(): void {
    for (;;) {
      const turn = nextTurn({ waiting: this.ring, running: this.running }, this.limits);
      if (!turn) return;
      const { workspaceId, webhookId } = turn;
      const workspace = this.ring[turn.workspaceAt]!;
      const queue = this.waiting.get(webhookId)!;
      const deliveryId = queue.shift()!;
      // The webhook, then its workspace, go to the back of their turn orders (or out when nothing of theirs waits).
      workspace.webhookIds.splice(turn.webhookAt, 1);
      if (queue.length > 0) workspace.webhookIds.push(webhookId);
      else this.waiting.delete(webhookId);
      this.ring.splice(turn.workspaceAt, 1);
      if (workspace.webhookIds.length > 0) this.ring.push(workspace);
      else this.inRing.delete(workspaceId);
      this.start(workspaceId, webhookId, deliveryId);
    }
  }

  private start(workspaceId: string, webhookId: string, deliveryId: string): void {
    this.count(workspaceId, webhookId, +1);
    this.state.set(deliveryId, 'running');
    void this.work(deliveryId, webhookId)
      .catch((error: unknown) => this.onError(error, deliveryId))
      .finally(() => {
        this.count(workspaceId, webhookId, -1);
        const again = this.state.get(deliveryId) === 'again';
        this.state.delete(deliveryId);
        if (again && !this.stopped) this.enqueue(workspaceId, webhookId, deliveryId);
        this.pump();
        if (this.state.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
  }

  private count(workspaceId: string, webhookId: string, change: 1 | -1): void {
    this.running.total += change;
    for (const [counts, key] of [
      [this.running.byWorkspace, workspaceId],
      [this.running.byWebhook, webhookId],
    ] as const) {
      const value = (counts.get(key) ?? 0) + change;
      if (value === 0) counts.delete(key);
      else counts.set(key, value);
    }
  }
}
