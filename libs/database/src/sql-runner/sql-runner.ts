import { DataSource } from 'typeorm';
import { readWithDeadline } from './cancellable-read';
import { withDeadline } from './deadline';
import { SqlSession, exclusiveWrite, retryDeadlocks, writeTransaction } from './write-transaction';

/** One SQL statement and its bound values. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** What a repository that only reads needs of the runner. */
export type SqlReader = Pick<SqlRunner, 'read' | 'mysql'>;

/**
 * The one way SQL reaches the database: every repository runs its statements through a runner.
 * It keeps the rules that hold for every statement in one place: the deadline (the API's runner
 * answers within twice `DB_TIMEOUT_MS` or fails as "database unavailable"; the importer's and the
 * command line's have none), reads cancelled on the server when late, write transactions taken in
 * turn on SQLite and retried after a MySQL deadlock, and a change set's statements sent as one
 * batch. Statements built from lists are cut by `sql-lists.ts`, re-exported beside it.
 */
export class SqlRunner {
  readonly mysql: boolean;

  /** @param deadlineMs longest wait for one database call (none: the call as it is). */
  constructor(
    private readonly dataSource: DataSource,
    readonly deadlineMs?: number,
  ) {
    this.mysql = dataSource.options.type === 'mysql';
  }

  /** The same runner without a deadline: for work that is long by design (a copy-swap load). */
  get unbounded(): SqlRunner {
    return this.deadlineMs === undefined ? this : new SqlRunner(this.dataSource);
  }

  /** The connection outside any transaction, for reads that a caller strings together. */
  get session(): SqlSession {
    return this.dataSource.manager;
  }

  /** One read within the deadline; on MySQL its statement is killed when the deadline passes. */
  read<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return readWithDeadline<T[]>(this.dataSource, sql, params, this.deadlineMs);
  }

  /**
   * `work` as one write transaction, within the deadline (`write-transaction.ts`: SQLite's writes
   * in turn, MySQL's deadlocks retried). `isolation`: MySQL's level, REPEATABLE READ else.
   */
  transaction<T>(
    work: (session: SqlSession) => Promise<T>,
    isolation?: 'READ COMMITTED',
  ): Promise<T> {
    return this.bounded(writeTransaction(this.dataSource, work, isolation));
  }

  /** `work`, several statements outside a transaction, after the process's other SQLite writes. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return exclusiveWrite(this.dataSource, work);
  }

  /** Any call made of several of the runner's, within the deadline as a whole. */
  bounded<T>(work: Promise<T>): Promise<T> {
    return withDeadline(work, this.deadlineMs);
  }

  /** SQL for the id that the connection's previous INSERT created, in either dialect. */
  get lastInsertIdSql(): string {
    return this.mysql ? 'LAST_INSERT_ID()' : 'last_insert_rowid()';
  }

  /**
   * Runs `statements` as one write transaction, all or none, within the deadline, and answers per
   * statement the id its INSERT created (undefined for other statements). MySQL: one round trip,
   * the transaction and its statements sent as one multi-statement query; a record, its revision
   * and its commit row cost one exchange with the server instead of five (decision 0027). SQLite
   * runs in the process: statement by statement in a write transaction.
   */
  batch(statements: SqlStatement[]): Promise<(number | undefined)[]> {
    return this.bounded(this.mysql ? this.mysqlBatch(statements) : this.sqliteBatch(statements));
  }

  private sqliteBatch(statements: SqlStatement[]): Promise<(number | undefined)[]> {
    return writeTransaction(this.dataSource, async (session) => {
      const ids: (number | undefined)[] = [];
      for (const { sql, params } of statements) {
        const result: unknown = await session.query(sql, params);
        ids.push(/^\s*INSERT/i.test(sql) ? Number(result) : undefined);
      }
      return ids;
    });
  }

  private mysqlBatch(statements: SqlStatement[]): Promise<(number | undefined)[]> {
    // READ COMMITTED as the other writes of records: the closing statements read the history
    // without locks.
    const sql = [
      'SET TRANSACTION ISOLATION LEVEL READ COMMITTED',
      'START TRANSACTION',
      ...statements.map((s) => s.sql),
      'COMMIT',
    ].join(';\n');
    const params = statements.flatMap((s) => s.params);
    return retryDeadlocks(async () => {
      const runner = this.dataSource.createQueryRunner();
      try {
        const results = (await runner.query(sql, params)) as { insertId?: number }[];
        return results.slice(2, -1).map((result) => result.insertId || undefined);
      } catch (error) {
        // The server stops at the failing statement and leaves the transaction open.
        await runner.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        await runner.release();
      }
    });
  }
}
