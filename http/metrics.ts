import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from 'better-sqlite3';
import type { ProcessStatus } from '../processes/runner.ts';
import type { ProjectionStatus } from '../projections/runner.ts';
import { pendingTimerCount } from '../projections/timers.ts';
import type { LargeBodyTurns } from './middleware/large-body-turns.ts';
import { RequestMetrics } from './request-metrics.ts';

/**
 * Prometheus metrics of one app, in a registry of its own (not prom-client's global one), so several apps in one
 * process (tests, benchmarks) do not clash. Request metrics are labelled by route pattern, never by raw path, so
 * their number stays bounded (they are counted by RequestMetrics, without prom-client on the request path); the
 * background gauges are read when scraped.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics();

  constructor(sources: {
    projections: { status(): Promise<ProjectionStatus[]> };
    processes: { status(): Promise<ProcessStatus[]> };
    readDb: Database;
    node: { leading(): boolean };
    largeBodies: Pick<LargeBodyTurns, 'inFlight' | 'waiting'>;
  }) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'projection_lag_events',
      help: 'Events in the store not yet applied by each projection.',
      labelNames: ['projection'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const status of await sources.projections.status()) this.set({ projection: status.name }, status.lag);
      },
    });
    // One gauge per figure of the process managers' status, labelled by manager.
    const processGauge = (name: string, help: string, figure: (status: ProcessStatus) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['process'],
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const status of await sources.processes.status()) this.set({ process: status.name }, figure(status));
        },
      });
    processGauge('process_manager_backlog_events', 'Events not yet handled by each process manager.', (status) => status.backlog);
    processGauge('process_manager_retries', 'Retries of infrastructure failures by each process manager since start (a rising value is an outage).', (status) => status.retries);
    processGauge('process_dead_letters', 'Events a process manager set aside for a logic failure, not yet retried successfully (cli processes dead-letters).', (status) => status.dead_letters);
    // One gauge per figure read when scraped.
    const valueGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    valueGauge('node_leader', 'Whether this node runs the singleton work now: always for a lone node; with CLUSTER=true, while it holds the leader lease (1 yes, 0 no).', () => (sources.node.leading() ? 1 : 0));
    valueGauge('http_large_bodies_in_flight', 'Requests with large bodies (over 256 KB, or of undeclared length) being handled: they take turns, one at a time.', () => sources.largeBodies.inFlight);
    valueGauge('http_large_bodies_waiting', 'Requests with large bodies waiting for their turn, workspaces in turn (their bodies not yet read).', () => sources.largeBodies.waiting);
    valueGauge('timers_pending', 'Durable timers scheduled and not yet fired or cancelled.', () => pendingTimerCount(sources.readDb));
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  async text(): Promise<string> {
    return `${await this.registry.metrics()}\n${this.requests.text()}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
