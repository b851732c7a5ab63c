/** Upper bounds (seconds) of the request latency histogram. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  /** `method="GET",route="/v1/scripts",status="200"` */
  labels: string;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is above every bound (+Inf only). */
  perBucket: number[];
}

const escapeLabel = (value: string) => value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

/**
 * `http_requests_total` and `http_request_duration_seconds` (by method, route pattern and status), counted in
 * plain numbers and written in the Prometheus text format when scraped. prom-client's Counter and Histogram
 * validate and hash the label set on every observation, which cost more than the rest of the request bookkeeping
 * (measured: docs/api.md, Performance); a scrape is rare, a request is not. The text is what prom-client writes
 * for the same metrics.
 */
export class RequestMetrics {
  private readonly series = new Map<string, Series>();

  observe(method: string, route: string, status: number, seconds: number): void {
    // Few label sets (route patterns × methods × statuses), so the key stays bounded.
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`,
        count: 0,
        sum: 0,
        perBucket: new Array<number>(BUCKETS.length + 1).fill(0),
      };
      this.series.set(key, series);
    }
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
    series.perBucket[bucket]!++;
    series.count++;
    series.sum += seconds;
  }

  text(): string {
    const requests = [
      '# HELP http_requests_total HTTP requests by method, route pattern and status.',
      '# TYPE http_requests_total counter',
    ];
    const duration = [
      '# HELP http_request_duration_seconds HTTP request latency by method, route pattern and status.',
      '# TYPE http_request_duration_seconds histogram',
    ];
    for (const { labels, count, sum, perBucket } of this.series.values()) {
      requests.push(`http_requests_total{${labels}} ${count}`);
      let cumulative = 0;
      BUCKETS.forEach((bound, index) => {
        cumulative += perBucket[index]!;
        duration.push(`http_request_duration_seconds_bucket{le="${bound}",${labels}} ${cumulative}`);
      });
      duration.push(`http_request_duration_seconds_bucket{le="+Inf",${labels}} ${count}`);
      duration.push(`http_request_duration_seconds_sum{${labels}} ${sum}`);
      duration.push(`http_request_duration_seconds_count{${labels}} ${count}`);
    }
    return `${requests.join('\n')}\n\n${duration.join('\n')}\n`;
  }
}
