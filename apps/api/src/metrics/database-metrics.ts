import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DatabaseActivity } from '@app/database';

/** Query time buckets, in seconds. */
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The database metrics of one application: query time and errors (either driver), and the
 * MySQL pool's connections; SQLite has no pool (one connection), so nothing is reported for it.
 */
export function registerDatabaseMetrics(
  registry: Registry,
  activity: DatabaseActivity,
): () => void {
  const duration = new Histogram({
    name: 'db_query_duration_seconds',
    help: "Database query time as TypeORM measures it (in whole milliseconds), the API's own connection",
    buckets: QUERY_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'db_query_errors_total',
    help: 'Database queries that failed',
    registers: [registry],
  });
  const stop = activity.watchQueries(({ succeeded, milliseconds }) => {
    if (!succeeded) errors.inc();
    else if (milliseconds !== undefined) duration.observe(milliseconds / 1000);
  });
  if (activity.pooled) registerPoolMetrics(registry, activity);
  return stop;
}

function registerPoolMetrics(registry: Registry, activity: DatabaseActivity): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'MySQL pool connections: active (lent to a query) or idle',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = activity.poolCounts();
      if (!pool) return;
      this.set({ state: 'active' }, pool.open - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a MySQL pool connection',
    registers: [registry],
    collect() {
      this.set(activity.poolCounts()?.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'MySQL pool size (DB_POOL_SIZE)',
    registers: [registry],
    collect() {
      this.set(activity.poolCounts()?.limit ?? 0);
    },
  });
}
