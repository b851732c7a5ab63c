/**
 * Where large commands are decided (commands/decisions-off-thread.ts): one worker thread, started with the first
 * such command, so a 100,000-contact campaign's validation never holds the event loop that serves every workspace.
 * Workspaces take turns for it (WorkspaceTurns: the one that used it least lately first), so one tenant's stream of
 * large campaigns waits behind itself.
 * The thread has its own heap limit: a command too large for it fails alone (a 500 for that request, the process
 * lives); request bodies are bounded at 10 MB, which the limit holds with room to spare.
 */
import { Piscina } from 'piscina';
import type { DecisionsOffThread } from '../../commands/decisions-off-thread.ts';
import type { DecisionTask } from './decision-worker.ts';
import { WorkspaceTurns } from './workspace-turns.ts';

const TYPESCRIPT_WORKER = new URL('./typescript-worker.mjs', import.meta.url).href;
const DECISION_WORKER = new URL('./decision-worker.ts', import.meta.url).href;
const DECISION_HEAP_MB = 512;

export interface DecisionPool extends DecisionsOffThread {
  close(): Promise<void>;
}

export function createDecisionPool(): DecisionPool {
  const turns = new WorkspaceTurns(1);
  let pool: Piscina | null = null;
  const started = (): Piscina =>
    (pool ??= new Piscina({
      filename: TYPESCRIPT_WORKER,
      workerData: { module: DECISION_WORKER, threadName: 'decisions' },
      minThreads: 1,
      maxThreads: 1,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: DECISION_HEAP_MB },
    }));

  return {
    async decide(name, command, workspaceId) {
      const turn = await turns.take(workspaceId ?? '');
      try {
        const task: DecisionTask = { name, command };
        return await started().run(task);
      } finally {
        turn.end();
      }
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}
