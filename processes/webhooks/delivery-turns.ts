/**
 * The delivery queue's choice (pure): whose attempt starts when a slot may be free. Workspaces take turns first,
 * then the webhooks of the workspace whose turn it is; each level has a cap on attempts under way, so receivers
 * that never answer (each attempt held up to the 10 s deadline) hold at most `perWebhook` slots per webhook and
 * `perWorkspace` per workspace, and the other workspaces keep the rest.
 */
export interface QueueLimits {
  /** Attempts under way at once, in total. */
  total: number;
  /** ... for one workspace (all its webhooks together). */
  perWorkspace: number;
  /** ... for one webhook. */
  perWebhook: number;
}

/** 64 in total, a quarter of them per workspace, 8 per webhook. */
export const DEFAULT_QUEUE_LIMITS: QueueLimits = { total: 64, perWorkspace: 16, perWebhook: 8 };

export interface Turns {
  /** Workspaces with deliveries waiting, in turn order, each with its webhooks that have deliveries waiting, in turn order. */
  waiting: ReadonlyArray<{ readonly workspaceId: string; readonly webhookIds: readonly string[] }>;
  /** Attempts under way: in total, by workspace, by webhook. */
  running: { total: number; byWorkspace: ReadonlyMap<string, number>; byWebhook: ReadonlyMap<string, number> };
}

export interface Turn {
  workspaceId: string;
  webhookId: string;
  /** Where they are in `waiting` (and in that workspace's `webhookIds`). */
  workspaceAt: number;
  webhookAt: number;
}

/**
 * The first workspace in turn order below its cap that has a webhook below its cap, and that webhook (the first
 * such in the workspace's turn order); null when the total is reached or everything waiting belongs to a capped
 * workspace or webhook. The caller moves both to the back of their turn orders after starting the attempt.
 */
export function nextTurn(turns: Turns, limits: QueueLimits): Turn | null {
  const { running } = turns;
  if (running.total >= limits.total) return null;
  for (let workspaceAt = 0; workspaceAt < turns.waiting.length; workspaceAt++) {
    const { workspaceId, webhookIds } = turns.waiting[workspaceAt]!;
    if ((running.byWorkspace.get(workspaceId) ?? 0) >= limits.perWorkspace) continue;
    const webhookAt = webhookIds.findIndex((webhookId) => (running.byWebhook.get(webhookId) ?? 0) < limits.perWebhook);
    if (webhookAt !== -1) return { workspaceId, webhookId: webhookIds[webhookAt]!, workspaceAt, webhookAt };
  }
  return null;
}
