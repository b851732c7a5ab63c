import type { ClaimedWork } from '../../infra/work-queue/port.ts';
import type { WorkOutcome } from '../work-queue/queue-consumer.ts';

/**
 * A cluster node's handler for the `reports` queue: one claim, one attempt of the run (createReportRunAttempt). A
 * failed attempt that may be retried goes back to the queue after its pause, for whichever node claims it next;
 * a run completed, failed for good or already finished elsewhere is acked.
 */
export function generateReportWorkItem(attempt: (reportId: string, runId: string) => Promise<number | null>) {
  return async (item: ClaimedWork): Promise<WorkOutcome> => {
    const { report_id: reportId, run_id: runId } = item.payload;
    if (typeof reportId !== 'string' || typeof runId !== 'string') return { kind: 'park', reason: 'the item names no report_id and run_id' };
    const retryAfterMs = await attempt(reportId, runId);
    return retryAfterMs === null ? { kind: 'ack' } : { kind: 'nack', reason: 'the report run attempt failed', retryAfterMs };
  };
}
