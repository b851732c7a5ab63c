import type { Database, Statement } from 'better-sqlite3';
import { DEFAULT_DIALING_CONCURRENCY } from '../../domain/workspace.ts';

/**
 * The calls each workspace has on the line, against its dialing concurrency (workspaces read model, set by the
 * operator CLI). The dialer holds a slot from the moment it reserves an attempt; the call runner releases it when
 * the call's outcome is recorded, which wakes the dialer up to place the next call. Slots are keyed by call id, so
 * holding or releasing the same call twice (a replay, a recovery) counts once.
 */
export class DialingSlots {
  private readonly calls = new Map<string, Set<string>>();
  private readonly listeners: Array<(workspaceId: string) => void> = [];

  private limitQuery: Statement<[string], { dialing_concurrency: number }> | null = null;

  constructor(private readonly readDb: Database) {}

  /** The workspace's limit now (the operator may change it while a campaign runs). */
  limit(workspaceId: string): number {
    // Prepared on first use (the workspaces table exists once the projections have migrated), then reused: this
    // runs every time a call ends.
    this.limitQuery ??= this.readDb.prepare('SELECT dialing_concurrency FROM workspaces WHERE workspace_id = ?');
    return this.limitQuery.get(workspaceId)?.dialing_concurrency ?? DEFAULT_DIALING_CONCURRENCY;
  }

  inUse(workspaceId: string): number {
    return this.calls.get(workspaceId)?.size ?? 0;
  }

  hold(workspaceId: string, callId: string): void {
    let calls = this.calls.get(workspaceId);
    if (!calls) this.calls.set(workspaceId, (calls = new Set()));
    calls.add(callId);
  }

  release(workspaceId: string, callId: string): void {
    const calls = this.calls.get(workspaceId);
    if (!calls?.delete(callId)) return;
    if (calls.size === 0) this.calls.delete(workspaceId);
    for (const listener of this.listeners) listener(workspaceId);
  }

  /** Called after every release (the dialer places the next call). */
  onRelease(listener: (workspaceId: string) => void): void {
    this.listeners.push(listener);
  }
}
