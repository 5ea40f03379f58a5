import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AfterQueryEvent, DataSource, EntitySubscriberInterface } from 'typeorm';

/** Query time buckets, in seconds. */
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** mysql2's pool, whose counts it keeps only in these fields (it has no public accessor). */
interface MysqlPool {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
  config: { connectionLimit: number };
}

/**
 * Every query this instance's connection runs, timed by TypeORM itself (`afterQuery`, whole
 * milliseconds): nothing is added to the query path but one histogram observation. Never the SQL.
 */
class QueryTimer implements EntitySubscriberInterface {
  constructor(
    private readonly duration: Histogram,
    private readonly errors: Counter,
  ) {}

  afterQuery(event: AfterQueryEvent): void {
    if (!event.success) this.errors.inc();
    else if (event.executionTime !== undefined) this.duration.observe(event.executionTime / 1000);
  }
}

/**
 * The database metrics of one application: query time and errors (either driver), and the
 * MySQL pool's connections; SQLite has no pool (one connection), so nothing is reported for it.
 */
export function registerDatabaseMetrics(registry: Registry, dataSource: DataSource): () => void {
  const timer = new QueryTimer(
    new Histogram({
      name: 'db_query_duration_seconds',
      help: "Database query time as TypeORM measures it (in whole milliseconds), the API's own connection",
      buckets: QUERY_BUCKETS,
      registers: [registry],
    }),
    new Counter({
      name: 'db_query_errors_total',
      help: 'Database queries that failed',
      registers: [registry],
    }),
  );
  dataSource.subscribers.push(timer);
  if (dataSource.options.type === 'mysql') registerPoolMetrics(registry, dataSource);
  return () => {
    const at = dataSource.subscribers.indexOf(timer);
    if (at !== -1) dataSource.subscribers.splice(at, 1);
  };
}

function registerPoolMetrics(registry: Registry, dataSource: DataSource): void {
  const pool = () => (dataSource.driver as unknown as { pool?: MysqlPool }).pool;
  new Gauge({
    name: 'db_pool_connections',
    help: 'MySQL pool connections: active (lent to a query) or idle',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const current = pool();
      if (!current) return;
      const all = current._allConnections.length;
      const idle = current._freeConnections.length;
      this.set({ state: 'active' }, all - idle);
      this.set({ state: 'idle' }, idle);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a MySQL pool connection',
    registers: [registry],
    collect() {
      this.set(pool()?._connectionQueue.length ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'MySQL pool size (DB_POOL_SIZE)',
    registers: [registry],
    collect() {
      this.set(pool()?.config.connectionLimit ?? 0);
    },
  });
}
