import type { ClaimedWork, WorkQueue } from '../../infra/work-queue/port.ts';
import type { Logger } from '../../infra/logger.ts';
import type { WorkOutcome } from '../work-queue/queue-consumer.ts';
import type { QueuedJob } from './fair-job-queue.ts';
import { TRANSCRIPTION_QUEUES, type JobLane } from './transcription-worker.ts';

/**
 * Transcription jobs in a cluster (docs/operations.md, "Work queue"): the leader's transcription worker keeps the
 * lone node's fair queue (fair-job-queue.ts: workspaces in turn, the fewest running first, at most all slots but
 * one per workspace), but its slots are the cluster's, and a job that takes a slot is **admitted** to its lane's
 * work queue instead of run; the slot stays held until the item is finished on whichever node claimed it
 * (`WorkQueue.waitUntilFinished`). The queue therefore never holds more of a lane's jobs than the cluster's
 * consumers can run at once, admitted in fair order, so one workspace's flood cannot line up ahead of another
 * workspace's job: the same pattern as webhook delivery attempts (processes/webhooks/work-queue-delivery.ts).
 */

/** Claims of a job's item before it is parked: above the job's own attempts (DEFAULT_MAX_ATTEMPTS), which decide. */
export const TRANSCRIPTION_ITEM_ATTEMPTS = 10;

/**
 * The cluster's admission slots per lane: every worker node's consumers of the lane (each node runs
 * `perNode[lane]`), so that what is admitted is what runs, with no backlog in the queue. Fewer slots would leave
 * consumers idle; more would let the queue hold a backlog that another workspace's job waits behind (claims go
 * oldest first). The per-workspace cap is the fair queue's (`workspaceCap`: all slots but one), so a workspace
 * flooding the cluster leaves one consumer free for the next workspace's job, as on a lone node.
 */
export function clusterAdmissionSlots(perNode: Readonly<Record<JobLane, number>>, workerNodes: number): Record<JobLane, number> {
  if (!Number.isInteger(workerNodes) || workerNodes < 1) throw new RangeError(`the number of worker nodes must be a positive integer, got ${workerNodes}`);
  return { audio: perNode.audio * workerNodes, transcript: perNode.transcript * workerNodes };
}

/**
 * The leader's side: enqueues the job on its lane's queue (the same id again, as after a leader handover, changes
 * nothing) and resolves when the item is finished on whichever node claimed it, or when the leader stops. A
 * parked item (its claims spent by nodes dying on it) frees its slot; the job stays unfinished until the operator
 * requeues the item (`cli queue requeue`) or the next leader's recovery admits it again.
 */
export function admitTranscriptionJob(ports: { workQueue: WorkQueue; logger: Logger }) {
  const { workQueue, logger } = ports;
  return async (job: QueuedJob<JobLane>, signal: AbortSignal): Promise<void> => {
    const queue = TRANSCRIPTION_QUEUES[job.lane];
    await workQueue.enqueue(queue, { id: job.jobId, payload: { job_id: job.jobId }, maxAttempts: TRANSCRIPTION_ITEM_ATTEMPTS });
    const finished = await workQueue.waitUntilFinished(queue, job.jobId, signal);
    if (finished === 'parked') logger.warn({ job_id: job.jobId, queue }, 'a transcription job was parked on its work queue (cli queue requeue puts it back)');
  };
}

/**
 * A node's side, the handler of a lane's queue consumer: the job as one attempt on its stream. A job cut short by
 * this node stopping goes back to the queue at once (nack) and runs on another node as its next attempt.
 */
export function runTranscriptionWorkItem(runner: { run(jobId: string): Promise<void> }, stopping: AbortSignal) {
  return async (item: ClaimedWork): Promise<WorkOutcome> => {
    const jobId = item.payload.job_id;
    if (typeof jobId !== 'string') return { kind: 'park', reason: 'the item names no job_id' };
    await runner.run(jobId);
    return stopping.aborted ? { kind: 'nack', reason: 'the node stopped during the job' } : { kind: 'ack' };
  };
}
