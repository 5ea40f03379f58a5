import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isDeadlock, isSqliteBusy } from '../database-errors';

/** Runs of a write transaction that MySQL picked as a deadlock's victim. */
const DEADLOCK_ATTEMPTS = 5;

/**
 * SQLite: the longest pause between two attempts to take the write lock held by another process.
 * Short, because SQLite does not queue writers: a waiter gets in only while no one holds the lock.
 */
export const LOCK_RETRY_MAX_MS = 4;

/** A connection inside (or outside) a transaction, as the repositories' statements take it. */
export type SqlSession = EntityManager;

/** Per SQLite DataSource: the end of the queue of its writes. */
const sqliteWrites = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `work` (one write, or a whole write transaction) after the process's earlier writes to the
 * same SQLite database have ended. The process has one SQLite connection, and TypeORM's queries
 * are async functions: two requests resumed together (pipelined requests, replies of the Redis
 * rate limiter read at once) interleave their statements on that connection. A second `BEGIN`
 * then failed (500), and a single-row write landing inside another request's transaction was
 * rolled back with it after its 201. MySQL: at once (each transaction has a pooled connection).
 */
export function exclusiveWrite<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  if (dataSource.options.type === 'mysql') return work();
  const turn = (sqliteWrites.get(dataSource) ?? Promise.resolve()).then(work);
  sqliteWrites.set(
    dataSource,
    turn.catch(() => undefined),
  );
  return turn;
}

/**
 * A transaction that writes. SQLite's default transaction starts as a reader and takes the write
 * lock at its first write; if another process (the admin CLI, another import) wrote meanwhile,
 * that upgrade fails at once with "database is locked", without waiting the busy timeout.
 * `BEGIN IMMEDIATE` takes the write lock first, waiting up to `DB_TIMEOUT_MS` for it, so that
 * processes take turns; within the process, `exclusiveWrite` does. It goes around TypeORM's
 * transaction bookkeeping on the process's one SQLite connection.
 * MySQL: TypeORM's transaction (InnoDB locks rows as they are written). Concurrent transactions
 * can deadlock there (gap locks: bulk writes over the same keys, two `tokens create` reading the
 * revision `FOR UPDATE`); InnoDB rolls the victim back whole, so it is run again, a few times,
 * after a short random pause, as InnoDB's error asks ("try restarting transaction"). Still a
 * deadlock after that: the error. `work` must therefore do nothing but its queries. `isolation`:
 * MySQL's level for the transaction (its default, REPEATABLE READ, else); SQLite has one writer.
 */
export async function writeTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  isolation?: 'READ COMMITTED',
): Promise<T> {
  if (dataSource.options.type === 'mysql') {
    return retryDeadlocks(() =>
      isolation ? dataSource.transaction(isolation, work) : dataSource.transaction(work),
    );
  }
  return exclusiveWrite(dataSource, async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await beginImmediate(runner, busyTimeoutOf(dataSource));
      try {
        const result = await work(runner.manager);
        await runner.query('COMMIT');
        return result;
      } catch (error) {
        // SQLite has already rolled back after some errors (disk full, I/O): the original
        // error is what counts, not "no transaction is active".
        await runner.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  });
}

/**
 * Runs a MySQL transaction again when InnoDB picked it as a deadlock's victim (it rolled it back
 * whole), a few times, after a short random pause, as InnoDB's error asks.
 */
export async function retryDeadlocks<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** The connection's busy timeout (`DB_TIMEOUT_MS`), in ms. */
function busyTimeoutOf(dataSource: DataSource): number {
  const options = dataSource.options as { timeout?: number };
  return options.timeout ?? 5000;
}

/**
 * `BEGIN IMMEDIATE`, waiting up to `timeoutMs` for the write lock without blocking the event
 * loop: SQLite's own busy wait sleeps in the calling thread, so while another connection held the
 * lock (a whole import's transaction) every request of the process, reads too, stood still. Here
 * the attempt fails at once and is retried after a timer until the deadline; then SQLITE_BUSY
 * (503) as before. Reads need no lock (WAL), and nothing else in the transaction waits for one.
 */
async function beginImmediate(runner: QueryRunner, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await runner.query('PRAGMA busy_timeout = 0');
  try {
    for (let pause = 1; ; pause = Math.min(pause * 2, LOCK_RETRY_MAX_MS)) {
      try {
        await runner.query('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isSqliteBusy(error) || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  } finally {
    await runner.query(`PRAGMA busy_timeout = ${timeoutMs}`);
  }
}
