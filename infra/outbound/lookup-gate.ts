import { lookup as dnsLookup } from 'node:dns/promises';

/**
 * Name resolution for outbound requests, with bounded concurrency. `dns.lookup` is getaddrinfo on libuv's thread
 * pool (4 threads, shared with file I/O, crypto and zlib) and cannot be interrupted: a name whose DNS never
 * answers holds its thread until the system resolver gives up. So at most `total` lookups run at once (2 of the
 * 4 threads by default), the rest wait in a queue; a caller gives up at its own deadline (its signal), both while
 * waiting and while its lookup runs, but a lookup that was started keeps its slot until it really ends, so slow
 * DNS can never take more than those threads.
 *
 * Callers take turns by lane (the webhook sender passes the workspace; by default each host is its own lane): a
 * lane holds at most `perLane` slots, so one workspace's slow names cannot hold every slot while another
 * workspace waits. Lookups of a host already being looked up join that lookup instead of taking a slot.
 */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** One lookup of every address of a host (the system's getaddrinfo by default; a fake in tests). */
export type HostLookup = (host: string) => Promise<ReadonlyArray<ResolvedAddress>>;

export interface Resolver {
  /** Every address of `host`; rejects with `signal.reason` when the signal aborts first. */
  resolve(host: string, options?: { signal?: AbortSignal; lane?: string }): Promise<ReadonlyArray<ResolvedAddress>>;
}

export interface LookupLimits {
  /** Lookups under way at once, in total. */
  total: number;
  /** Lookups under way at once for one lane. */
  perLane: number;
}

export const DEFAULT_LOOKUP_LIMITS: LookupLimits = { total: 2, perLane: 1 };

export const systemLookup: HostLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

type Addresses = ReadonlyArray<ResolvedAddress>;

interface Waiter {
  host: string;
  lane: string;
  follow(lookup: Promise<Addresses>): void;
}

export class LookupGate implements Resolver {
  private running = 0;
  private readonly runningByLane = new Map<string, number>();
  private readonly underWay = new Map<string, Promise<Addresses>>();
  private readonly waiting = new Map<string, Waiter[]>();
  /** Lanes with waiting lookups, in turn order. */
  private ring: string[] = [];

  constructor(
    private readonly lookup: HostLookup = systemLookup,
    private readonly limits: LookupLimits = DEFAULT_LOOKUP_LIMITS,
  ) {}

  /** Lookups running now (each holds a thread of the pool until it ends, whether anyone still waits for it). */
  get lookupsUnderWay(): number {
    return this.running;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  resolve(host: string, options: { signal?: AbortSignal; lane?: string } = {}): Promise<Addresses> {
    const { signal, lane = host } = options;
    return new Promise<Addresses>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let waiter: Waiter | null = null;
      const onAbort = () => {
        if (waiter) this.remove(waiter);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const follow = (lookup: Promise<Addresses>) => {
        waiter = null;
        lookup.then(
          (addresses) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(addresses);
          },
          (error: unknown) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        );
      };
      const joined = this.underWay.get(host);
      if (joined) return follow(joined);
      waiter = { host, lane, follow };
      this.push(waiter);
      this.pump();
    });
  }

  private push(waiter: Waiter): void {
    let queue = this.waiting.get(waiter.lane);
    if (!queue) {
      queue = [];
      this.waiting.set(waiter.lane, queue);
      this.ring.push(waiter.lane);
    }
    queue.push(waiter);
  }

  private remove(waiter: Waiter): void {
    const queue = this.waiting.get(waiter.lane);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index === -1) return;
    queue.splice(index, 1);
    if (queue.length === 0) {
      this.waiting.delete(waiter.lane);
      this.ring = this.ring.filter((lane) => lane !== waiter.lane);
    }
  }

  /** Whether the first waiter of a lane can go now: it joins a lookup under way, or a slot is free for its lane. */
  private canGo(lane: string): boolean {
    const head = this.waiting.get(lane)![0]!;
    if (this.underWay.has(head.host)) return true;
    return this.running < this.limits.total && (this.runningByLane.get(lane) ?? 0) < this.limits.perLane;
  }

  private pump(): void {
    for (;;) {
      const index = this.ring.findIndex((lane) => this.canGo(lane));
      if (index === -1) return;
      const lane = this.ring[index]!;
      const queue = this.waiting.get(lane)!;
      const waiter = queue.shift()!;
      // This lane goes to the back of the turn order (or out of it when nobody of it waits).
      this.ring.splice(index, 1);
      if (queue.length > 0) this.ring.push(lane);
      else this.waiting.delete(lane);
      waiter.follow(this.underWay.get(waiter.host) ?? this.begin(waiter.host, lane));
    }
  }

  private begin(host: string, lane: string): Promise<Addresses> {
    this.running++;
    this.runningByLane.set(lane, (this.runningByLane.get(lane) ?? 0) + 1);
    let lookup: Promise<Addresses>;
    try {
      lookup = Promise.resolve(this.lookup(host));
    } catch (error) {
      lookup = Promise.reject(error);
    }
    this.underWay.set(host, lookup);
    const release = () => {
      this.running--;
      const left = (this.runningByLane.get(lane) ?? 1) - 1;
      if (left === 0) this.runningByLane.delete(lane);
      else this.runningByLane.set(lane, left);
      this.underWay.delete(host);
      this.pump();
    };
    lookup.then(release, release);
    return lookup;
  }
}

/** The process-wide resolver: getaddrinfo, at most 2 lookups at once, taking turns by lane. */
export const systemResolver: Resolver = new LookupGate();
