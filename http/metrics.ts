import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Runtime } from '../composition.ts';
import { pendingTimerCount } from '../projections/timers.ts';

/**
 * Prometheus metrics of one app, in a registry of its own (not prom-client's global one), so several apps in one
 * process (tests, benchmarks) do not clash. Request metrics are labelled by route pattern, never by raw path, so
 * their number stays bounded; the background gauges are read when scraped.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly series = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();

  constructor(runtime: Pick<Runtime, 'projections' | 'processes' | 'readDb'>) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    new Gauge({
      name: 'projection_lag_events',
      help: 'Events in the store not yet applied by each projection.',
      labelNames: ['projection'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const status of await runtime.projections.status()) this.set({ projection: status.name }, status.lag);
      },
    });
    new Gauge({
      name: 'process_manager_backlog_events',
      help: 'Events not yet handled by each process manager.',
      labelNames: ['process'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const status of await runtime.processes.status()) this.set({ process: status.name }, status.backlog);
      },
    });
    new Gauge({
      name: 'timers_pending',
      help: 'Durable timers scheduled and not yet fired or cancelled.',
      registers: [this.registry],
      collect() {
        this.set(pendingTimerCount(runtime.readDb));
      },
    });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    // Label sets are few (route patterns × methods × statuses): keep their children instead of hashing labels
    // on every request.
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.requests.labels(labels), latency: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    series.count.inc();
    series.latency.observe(seconds);
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
