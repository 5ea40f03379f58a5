import { Logger } from '@nestjs/common';
import { ConcurrencyLimit } from '@app/common';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { DatabaseDeadlineError, withDeadline } from './deadline';
import { isQueryTimeout } from '../database-errors';
import { DEFAULT_POOL_SIZE } from '../pool-size';

/** mysql2's pooled connection, as TypeORM's query runner holds it. */
interface PooledConnection {
  threadId: number;
  destroy(): void;
}

type MysqlOptions = Extract<DataSource['options'], { type: 'mysql' | 'mariadb' }>;

const logger = new Logger('Database');

/**
 * Pooled connections that reads leave to the rest (the health probe, writes): reads stuck on a
 * slow or locked table then cannot take the whole pool.
 */
export const READ_RESERVED_CONNECTIONS = 2;

const readSlots = new WeakMap<DataSource, ConcurrencyLimit>();

function readSlotsOf(dataSource: DataSource, options: MysqlOptions): ConcurrencyLimit {
  let slots = readSlots.get(dataSource);
  if (!slots) {
    const pool = options.poolSize ?? DEFAULT_POOL_SIZE;
    slots = new ConcurrencyLimit(Math.max(1, pool - READ_RESERVED_CONNECTIONS));
    readSlots.set(dataSource, slots);
  }
  return slots;
}

/**
 * `KILL QUERY` (MariaDB and MySQL both have it) from a connection of its own: the pool may be
 * full of the very reads to stop. Opened for the kill and closed after it, so that nothing stays
 * open between the rare kills; bounded by the connect timeout.
 */
async function killQuery(options: MysqlOptions, threadId: number): Promise<void> {
  const timeout = options.connectTimeout;
  try {
    const connection = await createConnection({
      host: options.host,
      port: options.port,
      user: options.username,
      password: options.password,
      connectTimeout: timeout,
    });
    try {
      await connection.query({ sql: `KILL QUERY ${Math.trunc(threadId)}`, timeout });
    } finally {
      connection.destroy();
    }
  } catch (error) {
    // The statement ended meanwhile (no such thread): nothing left to stop.
    if ((error as { code?: string }).code === 'ER_NO_SUCH_THREAD') return;
    logger.warn('A statement past its deadline could not be cancelled on the database');
  }
}

/**
 * One read, bounded by `deadlineMs` as `withDeadline` bounds any call, whose statement does not
 * outlive the 503: on MySQL the driver's query timeout (`DB_TIMEOUT_MS`) and the deadline only
 * stop waiting, and the server went on running the statement. Its statement is killed there, and
 * its connection destroyed instead of going back to the pool (the kill's error, or the late
 * answer, may still arrive on it). Reads hold all but `READ_RESERVED_CONNECTIONS` of the pool at
 * most; one whose deadline passed while it waited for its turn or a connection never starts.
 * SQLite runs a statement within its call: nothing outlives it.
 */
export function readWithDeadline<T>(
  dataSource: DataSource,
  sql: string,
  params: unknown[],
  deadlineMs: number | undefined,
): Promise<T> {
  const options = dataSource.options;
  if (!deadlineMs || options.type !== 'mysql') {
    return withDeadline(dataSource.query<T>(sql, params), deadlineMs);
  }
  let late = false;
  let running: PooledConnection | undefined;
  let killed = false;
  const stop = () => {
    late = true;
    if (running && !killed) {
      killed = true;
      void killQuery(options, running.threadId);
    }
  };
  const work = readSlotsOf(dataSource, options).run(async () => {
    if (late) throw new DatabaseDeadlineError(deadlineMs);
    const runner = dataSource.createQueryRunner();
    try {
      const connection = (await runner.connect()) as PooledConnection;
      if (late) throw new DatabaseDeadlineError(deadlineMs);
      running = connection;
      return (await runner.query(sql, params)) as T;
    } catch (error) {
      if (isQueryTimeout(error)) stop();
      throw error;
    } finally {
      if (killed) running?.destroy();
      await runner.release();
    }
  });
  return withDeadline(work, deadlineMs, stop);
}
