/**
 * Which job runs next, fairly between workspaces. Jobs wait in lanes, each with its own number of slots, so a
 * kind of job that is quick (a submitted transcript) never waits behind a slow one (an audio download and its
 * recognition). Within a lane, each workspace has its own FIFO queue, and a free slot goes to:
 *
 * 1. a workspace below its cap in the lane (`workspaceCap`): one workspace can never hold every slot;
 * 2. among those, the one with the fewest jobs running in the lane, so a workspace that has nothing running
 *    goes before one that already runs several, however long the latter's queue;
 * 3. among equals, the one served least recently (round-robin; a workspace seen for the first time comes last).
 *
 * The queue holds no I/O and no clock: the caller starts what `next()` returns and calls `finish()` when it ends.
 * A job id is known from `add` until `finish`: adding it again meanwhile (a replayed event, recovery meeting a
 * live submission) does nothing, so a job queued twice runs once.
 */
export interface QueuedJob<Lane extends string> {
  jobId: string;
  workspaceId: string;
  lane: Lane;
}

/**
 * The most slots of a lane of `laneSize` one workspace may hold: all but one, so while a single workspace keeps
 * the lane busy (slow downloads, long recordings) every other workspace still finds a slot at once. A lane of
 * one slot cannot reserve anything: there a workspace's job waits for the running one to end (which the
 * download deadlines bound).
 *
 * Why not half the lane (ceil(size/2))? It gives the same guarantee and leaves the others more slots, but a
 * server with a single workspace, the common self-hosted case, would idle half its cores; with all but one, the
 * others share the slot left, and by rule 2 get every slot that frees while they run fewer.
 * Why not "the last free slot only when nobody else waits"? In a quiet moment a workspace could take every slot,
 * and the next workspace to submit would wait for one of its jobs to end: up to the download deadline plus the
 * recognition of a 4-hour recording.
 */
export function workspaceCap(laneSize: number): number {
  return laneSize >= 2 ? laneSize - 1 : 1;
}

class Lane {
  /** Workspaces with jobs waiting, in round-robin order: the one served last is at the end. */
  readonly waiting = new Map<string, string[]>();
  /** Jobs running per workspace (only workspaces with at least one). */
  readonly running = new Map<string, number>();
  runningTotal = 0;
  readonly cap: number;

  constructor(readonly size: number) {
    this.cap = workspaceCap(size);
  }

  /** The workspace whose job takes the next slot, by the rules above; undefined when none may. */
  chooseWorkspace(): string | undefined {
    if (this.runningTotal >= this.size) return undefined;
    let chosen: string | undefined;
    let fewest = Infinity;
    for (const workspaceId of this.waiting.keys()) {
      const running = this.running.get(workspaceId) ?? 0;
      if (running < this.cap && running < fewest) {
        chosen = workspaceId;
        fewest = running;
      }
    }
    return chosen;
  }
}

export class FairJobQueue<LaneName extends string> {
  private readonly lanes = new Map<LaneName, Lane>();
  /** Every job from `add` to `finish`, and whether it runs. */
  private readonly jobs = new Map<string, QueuedJob<LaneName> & { started: boolean }>();
  private waitingCount = 0;

  /** `laneSizes`: the slots of each lane, e.g. `{audio: 2, transcript: 2}`; `next()` looks at the lanes in this order. */
  constructor(laneSizes: Record<LaneName, number>) {
    for (const [name, size] of Object.entries(laneSizes) as Array<[LaneName, number]>) {
      if (!Number.isInteger(size) || size < 1) throw new RangeError(`lane ${name}: the number of slots must be a positive integer, got ${size}`);
      this.lanes.set(name, new Lane(size));
    }
  }

  /** Queues a job at the end of its workspace's queue in its lane; false, changing nothing, when it is already queued or running. */
  add(job: QueuedJob<LaneName>): boolean {
    if (this.jobs.has(job.jobId)) return false;
    const lane = this.lane(job.lane);
    this.jobs.set(job.jobId, { ...job, started: false });
    const queue = lane.waiting.get(job.workspaceId);
    if (queue === undefined) lane.waiting.set(job.workspaceId, [job.jobId]);
    else queue.push(job.jobId);
    this.waitingCount += 1;
    return true;
  }

  /** The next job to start, now counted as running; undefined when no lane has a slot for any job waiting in it. */
  next(): QueuedJob<LaneName> | undefined {
    for (const lane of this.lanes.values()) {
      const workspaceId = lane.chooseWorkspace();
      if (workspaceId === undefined) continue;
      const queue = lane.waiting.get(workspaceId)!;
      const jobId = queue.shift()!;
      // Served: to the end of the round, or out of it when nothing more waits.
      lane.waiting.delete(workspaceId);
      if (queue.length > 0) lane.waiting.set(workspaceId, queue);
      lane.running.set(workspaceId, (lane.running.get(workspaceId) ?? 0) + 1);
      lane.runningTotal += 1;
      this.waitingCount -= 1;
      const job = this.jobs.get(jobId)!;
      job.started = true;
      return { jobId, workspaceId, lane: job.lane };
    }
    return undefined;
  }

  /** A job that `next()` returned has ended: its slot is free, and the id may be queued again. */
  finish(jobId: string): void {
    const job = this.jobs.get(jobId);
    if (job === undefined || !job.started) return;
    this.jobs.delete(jobId);
    const lane = this.lane(job.lane);
    const running = lane.running.get(job.workspaceId)! - 1;
    if (running === 0) lane.running.delete(job.workspaceId);
    else lane.running.set(job.workspaceId, running);
    lane.runningTotal -= 1;
  }

  /** Jobs waiting for a slot, over all lanes. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Jobs running, over all lanes. */
  get running(): number {
    return this.jobs.size - this.waiting;
  }

  private lane(name: LaneName): Lane {
    const lane = this.lanes.get(name);
    if (lane === undefined) throw new RangeError(`no lane ${name}`);
    return lane;
  }
}
