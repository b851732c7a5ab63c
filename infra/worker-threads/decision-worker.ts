/** The task of a decision thread (decision-pool.ts): one large command decided on its stream's initial state. */
import { decideOffThread, type OffThreadDecision, type OffThreadDeciderName } from '../../commands/decisions-off-thread.ts';

export interface DecisionTask {
  name: OffThreadDeciderName;
  command: unknown;
}

export default function decide(task: DecisionTask): OffThreadDecision {
  return decideOffThread(task.name, task.command);
}
