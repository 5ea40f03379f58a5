import { Injectable } from '@nestjs/common';
import { AfterQueryEvent, DataSource, EntitySubscriberInterface } from 'typeorm';

/** One query this connection ran, as TypeORM timed it (whole milliseconds). Never the SQL. */
export interface QueryOutcome {
  succeeded: boolean;
  milliseconds?: number;
}

/** The MySQL pool's connections at one moment. */
export interface PoolCounts {
  /** Connections open, lent to a query or idle. */
  open: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The pool's size (`DB_POOL_SIZE`). */
  limit: number;
}

/** mysql2's pool, whose counts it keeps only in these fields (it has no public accessor). */
interface MysqlPool {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
  config: { connectionLimit: number };
}

/**
 * What the connection does, for the metrics: each query's time and outcome, told by TypeORM itself
 * (`afterQuery`), so nothing is added to the query path; and the MySQL pool's counts.
 */
@Injectable()
export class DatabaseActivity {
  constructor(private readonly dataSource: DataSource) {}

  /** Whether the connection is a pool (MySQL); SQLite runs on one connection. */
  get pooled(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  /** Calls `listener` after each query from now on; returns what stops it. */
  watchQueries(listener: (query: QueryOutcome) => void): () => void {
    const subscriber: EntitySubscriberInterface = {
      afterQuery: (event: AfterQueryEvent) =>
        listener({ succeeded: event.success, milliseconds: event.executionTime }),
    };
    this.dataSource.subscribers.push(subscriber);
    return () => {
      const at = this.dataSource.subscribers.indexOf(subscriber);
      if (at !== -1) this.dataSource.subscribers.splice(at, 1);
    };
  }

  /** The pool's counts now; undefined on SQLite and before the pool exists. */
  poolCounts(): PoolCounts | undefined {
    const pool = (this.dataSource.driver as unknown as { pool?: MysqlPool }).pool;
    if (!this.pooled || pool === undefined) return undefined;
    return {
      open: pool._allConnections.length,
      idle: pool._freeConnections.length,
      waiting: pool._connectionQueue.length,
      limit: pool.config.connectionLimit,
    };
  }
}
