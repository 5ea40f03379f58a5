import { Histogram, HistogramConfiguration } from 'prom-client';

/** The observations of one label set: a count per bucket (not cumulative), sum and count. */
export class LatencyCounts {
  /** `counts[i]`: values in bucket `i` (above the bound before it); the last: above every bound. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  /** As prom-client's `observe`: the first bucket whose bound is at least `value`. */
  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}

/** What prom-client's `Histogram` answers its registry (`get`, and unsplayed for the text). */
type Snapshot<T extends string> = Awaited<ReturnType<Histogram<T>['get']>>;

/** One line of the snapshot, as prom-client's `Histogram` makes it. */
interface Value {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * A prom-client `Histogram` whose observations are counted in plain arrays (`child`, one per label
 * set, resolved once) and written as prom-client writes its own. Kept because prom-client's
 * `observe`, a child's too, builds and hashes a label key on every call, the largest part of the
 * metrics' cost per request. Observe through `child` only: the inherited `observe` and `labels`
 * count into prom-client's own store, which is never written.
 */
export class LatencyHistogram<T extends string> extends Histogram<T> {
  private readonly children = new Map<string, LatencyCounts>();
  private readonly config: HistogramConfiguration<T> & { buckets: readonly number[] };

  constructor(config: HistogramConfiguration<T> & { buckets: number[]; labelNames: readonly T[] }) {
    super(config);
    this.config = { ...config, buckets: [...config.buckets] };
  }

  /** The counts of one label set (values in `labelNames`' order), created on first use. */
  child(labels: Readonly<Record<T, string>>): LatencyCounts {
    const key = JSON.stringify(labels);
    let counts = this.children.get(key);
    if (counts === undefined) {
      counts = new LatencyCounts({ ...labels }, this.config.buckets);
      this.children.set(key, counts);
    }
    return counts;
  }

  override reset(): void {
    // prom-client's constructor calls it too, before this class's fields are set.
    if (this.children === undefined) return;
    for (const counts of this.children.values()) {
      counts.counts.fill(0);
      counts.sum = 0;
      counts.count = 0;
    }
  }

  /** What the registry writes (prom-client's own Histogram answers this shape). */
  getForPromString(): Promise<Snapshot<T>> {
    return Promise.resolve(this.snapshot(false));
  }

  override get(): Promise<Snapshot<T>> {
    return Promise.resolve(this.snapshot(true));
  }

  /** Label sets never observed are left out, as prom-client leaves them out. */
  private snapshot(splay: boolean): Snapshot<T> {
    const { name, help, buckets } = this.config;
    const values: Value[] = [];
    const bucket = `${name}_bucket`;
    const add = (
      shared: Readonly<Record<string, string>>,
      labels: Record<string, string | number>,
      value: number,
      metricName: string,
      exemplar: null | undefined,
    ) => {
      values.push(
        splay
          ? { labels: { ...labels, ...shared }, value, metricName, exemplar }
          : { labels, sharedLabels: { ...shared }, value, metricName, exemplar },
      );
    };
    for (const counts of this.children.values()) {
      if (counts.count === 0) continue;
      let cumulative = 0;
      buckets.forEach((le, i) => {
        cumulative += counts.counts[i];
        add(counts.labels, { le }, cumulative, bucket, null);
      });
      add(counts.labels, { le: '+Inf' }, counts.count, bucket, null);
      add(counts.labels, {}, counts.sum, `${name}_sum`, undefined);
      add(counts.labels, {}, counts.count, `${name}_count`, undefined);
    }
    const aggregator = this.config.aggregator ?? 'sum';
    // As prom-client's `Histogram` answers at run time (its typings say an enum for `type`).
    return { name, help, type: 'histogram', values, aggregator } as unknown as Snapshot<T>;
  }
}
