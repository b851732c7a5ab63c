import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestMetrics } from '../../http/request-metrics.ts';

test('request metrics are written exactly as prom-client writes the same Counter and Histogram', async () => {
  const observations: Array<[string, string, number, number]> = [
    ['GET', '/v1/scripts', 200, 0.0004],
    ['GET', '/v1/scripts', 200, 0.001],
    ['GET', '/v1/scripts', 200, 0.0031],
    ['GET', '/v1/scripts', 200, 12],
    ['GET', '/v1/scripts/:id', 404, 0.02],
    ['POST', '/v1/scripts', 201, 0.25],
    ['GET', '(unmatched)', 404, 0.5],
  ];
  const ours = new RequestMetrics();
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests by method, route pattern and status.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) {
    ours.observe(method, route, status, seconds);
    const labels = { method, route, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  }
  assert.fixture(ours.text(), await registry.metrics());
});

test.run();
