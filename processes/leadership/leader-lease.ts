import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { FencedOff, WrongExpectedVersion, type EventMetadata, type EventStore, type Fence, type RecordedEvent } from '../../infra/eventstore/port.ts';
import type { Logger } from '../../infra/logger.ts';
import { CURRENT_SCHEMA_VERSION } from '../../domain/upcasters.ts';
import {
  currentLease,
  decideLease,
  isLeading,
  LEASE_STREAM,
  TERMS_STREAM,
  type LeaderTermStarted,
  type LeaseEvent,
  type LeaseRecords,
  type LeaseTiming,
  type ProcessCheckpoints,
} from './lease-decision.ts';

/** What the node does when it wins or loses the lease (composition.ts: start and stop the singleton work). */
export interface LeadershipWork {
  /** Called when this node starts a term, with the checkpoints the previous leader published last. */
  begin(term: number, published: ProcessCheckpoints): Promise<void>;
  end(): Promise<void>;
  /** Where this node's processes stand, published with each renewal. */
  checkpoints(): ProcessCheckpoints;
}

export interface LeaderLeaseOptions extends LeaseTiming {
  nodeId: string;
  candidate: boolean;
  /** How often the lease streams are read (default a sixth of the lease). */
  pollMs?: number;
  /** Wall-clock epoch milliseconds (tests move it). */
  now?: () => number;
}

/**
 * The leader election loop of one node: reads the two lease streams, asks `decideLease` what to do, and does it
 * (take a term, renew, or nothing). Starting and stopping the singleton work runs on a chain of its own, so a slow
 * start (recovery waits for the read models) never delays a renewal.
 */
export class LeaderLease {
  private records: LeaseRecords = { term: null, lease: null };
  private nextTermRevision = 0;
  private nextLeaseRevision = 0;
  private term: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private work: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly ports: { store: Pick<EventStore, 'readStream' | 'append' | 'listStreams'>; logger: Logger },
    private readonly leadership: LeadershipWork,
    private readonly options: LeaderLeaseOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Whether this node holds the lease now (what GET /health reports as `leader`). */
  get leading(): boolean {
    return this.term !== null;
  }

  /** The fence of this node's singleton appends, or null when it does not lead. */
  get fence(): Fence | null {
    return this.term === null ? null : { stream: TERMS_STREAM, revision: this.term };
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.tick(), this.options.pollMs ?? Math.max(100, Math.floor(this.options.ttlMs / 6)));
    this.tick();
  }

  /**
   * Stops the loop and the work; a leader releases its lease so the next node takes over at once. The work stops
   * while the term still fences its appends, so calls in flight record their results (unless the stop outlasts
   * the lease and another node takes over first: then they are fenced off, as after a crash).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    const term = this.term;
    if (term === null) {
      await this.work;
      return;
    }
    this.ports.logger.info({ node_id: this.options.nodeId, term }, 'stopping: the singleton work ends, then the lease is released');
    this.work = this.work.then(() => this.leadership.end()).catch((error: unknown) => this.ports.logger.error({ err: error }, 'singleton work failed to stop'));
    await this.work;
    await this.ports.store
      .append(LEASE_STREAM, [this.event('LeaderLeaseReleased', { node_id: this.options.nodeId, term, checkpoints: this.leadership.checkpoints() })], {
        expectedRevision: 'any',
        fence: { stream: TERMS_STREAM, revision: term },
      })
      .catch((error: unknown) => this.ports.logger.warn({ err: error }, 'could not release the leader lease; the next leader waits for it to expire'));
    this.term = null;
  }

  /** One round now (tests call it; the loop calls it on its interval). Resolves when the round is done. */
  tick(): Promise<void> {
    this.ticking = this.ticking.then(() => this.round()).catch((error: unknown) => this.ports.logger.warn({ err: error }, 'leader lease round failed'));
    return this.ticking;
  }

  /** Resolves once the work started or stopped so far has finished starting or stopping (tests). */
  settled(): Promise<void> {
    return this.work;
  }

  private async round(): Promise<void> {
    if (this.stopped) return;
    await this.read();
    const now = this.now();
    const lease = currentLease(this.records);
    if (this.term !== null && (lease?.term !== this.term || !isLeading(lease, this.options.nodeId, now, this.options))) {
      await this.depose(lease?.term !== this.term ? 'another node took the lease' : 'the lease was not renewed in time');
    }
    const action = decideLease(lease, { nodeId: this.options.nodeId, candidate: this.options.candidate }, now, this.options);
    if (action.kind === 'take') {
      try {
        const appended = await this.ports.store.append(
          TERMS_STREAM,
          [this.event('LeaderTermStarted', { node_id: this.options.nodeId, expires_at: new Date(action.expiresAt).toISOString() })],
          { expectedRevision: action.expectedTerm },
        );
        this.term = appended.nextExpectedRevision;
        this.ports.logger.info({ node_id: this.options.nodeId, term: this.term }, 'this node leads');
        const term = this.term;
        this.work = this.work.then(() => this.leadership.begin(term, action.checkpoints)).catch((error: unknown) => this.ports.logger.error({ err: error }, 'singleton work failed to start'));
      } catch (error) {
        // Another node took it first: the next round reads its term.
        if (!(error instanceof WrongExpectedVersion)) throw error;
      }
    } else if (action.kind === 'renew') {
      try {
        await this.ports.store.append(
          LEASE_STREAM,
          [this.event('LeaderLeaseRenewed', { node_id: this.options.nodeId, term: action.term, expires_at: new Date(action.expiresAt).toISOString(), checkpoints: this.leadership.checkpoints() })],
          { expectedRevision: 'any', fence: { stream: TERMS_STREAM, revision: action.term } },
        );
      } catch (error) {
        if (!(error instanceof FencedOff)) throw error;
        await this.depose('fenced off: a newer term exists');
      }
    }
  }

  /** Reads what was appended to the two streams since the last round. */
  private async read(): Promise<void> {
    const terms = await this.ports.store.readStream(TERMS_STREAM, { fromRevision: this.nextTermRevision });
    const lastTerm = terms.at(-1);
    if (lastTerm) {
      this.records = { ...this.records, term: { revision: lastTerm.revision, event: asTermStarted(lastTerm) } };
      this.nextTermRevision = lastTerm.revision + 1;
    }
    if (this.nextLeaseRevision === 0) {
      // On start only the newest renewal matters, and the stream grows by one every few seconds for ever.
      const [info] = await this.ports.store.listStreams({ prefix: LEASE_STREAM, limit: 1 });
      if (info?.stream === LEASE_STREAM) this.nextLeaseRevision = info.revision;
    }
    const leases = await this.ports.store.readStream(LEASE_STREAM, { fromRevision: this.nextLeaseRevision });
    const lastLease = leases.at(-1);
    if (lastLease) {
      this.records = { ...this.records, lease: asLeaseEvent(lastLease) };
      this.nextLeaseRevision = lastLease.revision + 1;
    }
  }

  private async depose(reason: string): Promise<void> {
    if (this.term === null) return;
    this.ports.logger.warn({ node_id: this.options.nodeId, term: this.term, reason }, 'this node no longer leads');
    this.term = null;
    this.work = this.work.then(() => this.leadership.end()).catch((error: unknown) => this.ports.logger.error({ err: error }, 'singleton work failed to stop'));
    await this.work;
  }

  private event(type: string, data: Record<string, unknown>) {
    const metadata: EventMetadata = {
      workspace_id: null,
      actor: `node:${this.options.nodeId}`,
      correlation_id: randomUUID(),
      causation_id: null,
      occurred_at: new Date(this.now()).toISOString(),
      schema_version: CURRENT_SCHEMA_VERSION,
    };
    return { id: randomUUID(), type, data, metadata };
  }
}

const termStartedData = z.object({ node_id: z.string(), expires_at: z.string() });
const checkpointsData = z.record(z.string(), z.number()).catch({});
const renewedData = z.object({ node_id: z.string(), term: z.number().int(), expires_at: z.string(), checkpoints: checkpointsData });
const releasedData = z.object({ node_id: z.string(), term: z.number().int(), checkpoints: checkpointsData });

/** The lease streams are written by this module only; anything else in them is a bug worth stopping on. */
function asTermStarted(event: RecordedEvent): LeaderTermStarted {
  if (event.type !== 'LeaderTermStarted') throw new Error(`unexpected event ${event.type} in ${TERMS_STREAM}`);
  return { type: 'LeaderTermStarted', data: termStartedData.parse(event.data) };
}

function asLeaseEvent(event: RecordedEvent): LeaseEvent {
  if (event.type === 'LeaderLeaseRenewed') return { type: 'LeaderLeaseRenewed', data: renewedData.parse(event.data) };
  if (event.type === 'LeaderLeaseReleased') return { type: 'LeaderLeaseReleased', data: releasedData.parse(event.data) };
  throw new Error(`unexpected event ${event.type} in ${LEASE_STREAM}`);
}
