import { Histogram, Registry } from 'prom-client';
import { LatencyHistogram } from './latency-histogram';

const BUCKETS = [0.0005, 0.001, 0.25, 1, 10];
const VALUES = [0, 0.0002, 0.0005, 0.00051, 0.1, 0.25, 1, 3.5, 10, 12, 600];
const LABEL_SETS = [
  { route: '/api/covid/public/latest', method: 'GET' },
  { route: 'unmatched', method: 'OTHER' },
  { route: '/a "quoted"\\path\nnext', method: 'HEAD' },
];

function pair() {
  const config = {
    name: 'latency_seconds',
    help: 'Latency "quoted"\\ and\nmore',
    labelNames: ['route', 'method'] as const,
    buckets: BUCKETS,
  };
  const theirs = new Registry();
  const ours = new Registry();
  return {
    theirs,
    ours,
    histogram: new Histogram({ ...config, registers: [theirs] }),
    latency: new LatencyHistogram({ ...config, registers: [ours] }),
  };
}

describe('LatencyHistogram (counted in arrays, written as prom-client writes its Histogram)', () => {
  it('answers the same text and JSON as prom-client for the same observations', async () => {
    const { theirs, ours, histogram, latency } = pair();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    LABEL_SETS.forEach((labels, n) => {
      const child = latency.child(labels);
      for (const value of VALUES.slice(n)) {
        histogram.observe(labels, value);
        child.observe(value);
      }
    });
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('counts into the same child for the same labels, and starts again from zero on reset', async () => {
    const { theirs, ours, histogram, latency } = pair();
    const labels = LABEL_SETS[0];
    latency.child(labels).observe(0.3);
    latency.child({ ...labels }).observe(0.3);
    histogram.observe(labels, 0.3);
    histogram.observe(labels, 0.3);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    latency.child(labels).observe(2);
    histogram.observe(labels, 2);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
