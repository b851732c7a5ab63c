import type { Projections, ProjectionStatus } from './runner.ts';

/**
 * The server's read models in two lanes, each its own database file, runner and thread: read.db's read models, and
 * search.db's transcript search index (projections/index.ts). Indexing one long transcript takes a quarter of a
 * second; in one lane, every workspace's write waited behind it for its read-your-writes (issue 12: a neighbour's
 * 4,000-segment transcripts made B's POSTs wait up to 300 ms). So what writes and process managers wait for,
 * `position` and `waitForPosition`, is the read lane's; a search waits for the search lane itself
 * (`waitForSearchIndex`). Status, catch-up and rebuilds cover both.
 */
export class ReadModelLanes implements Projections {
  constructor(
    private readonly read: Projections,
    private readonly search: Projections,
  ) {}

  get projections(): Projections['projections'] {
    return [...this.read.projections, ...this.search.projections];
  }

  get position(): number {
    return this.read.position;
  }

  waitForPosition(position: number, timeoutMs?: number): Promise<boolean> {
    return this.read.waitForPosition(position, timeoutMs);
  }

  /**
   * Waits (bounded) until the search index shows what the read models show now: a search answers what the client's
   * own writes and everything before them put there, as every other GET does.
   */
  waitForSearchIndex(timeoutMs?: number): Promise<boolean> {
    return this.search.waitForPosition(this.read.position, timeoutMs);
  }

  start(): void {
    this.read.start();
    this.search.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.read.stop(), this.search.stop()]);
  }

  async status(): Promise<ProjectionStatus[]> {
    const [read, search] = await Promise.all([this.read.status(), this.search.status()]);
    return [...read, ...search];
  }

  async catchUp(): Promise<void> {
    await Promise.all([this.read.catchUp(), this.search.catchUp()]);
  }

  async rebuild(name: string): Promise<void> {
    const lane = this.search.projections.some((projection) => projection.name === name) ? this.search : this.read;
    await lane.rebuild(name);
  }
}
