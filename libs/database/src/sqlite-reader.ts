import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';

/**
 * The reader thread, as plain JavaScript: it runs the same from the built files and from the
 * TypeScript sources (the in-process tests), with the driver the main thread resolved.
 */
const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true, timeout: workerData.timeoutMs });
const statements = new Map();
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size < 500) statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, error: { code: error.code, message: error.message } });
  }
});
`;

interface ReaderAnswer {
  id: number;
  rows?: unknown;
  error?: { code?: string; message?: string };
}

interface Pending {
  resolve(rows: unknown): void;
  reject(error: Error): void;
}

/** A failure of the reader thread, with the SQLite code (`SQLITE_BUSY`...) when it has one. */
class SqliteReadError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SqliteReadError';
  }
}

/**
 * SQLite's driver is synchronous: a read of a large history or of every place held the process's
 * event loop for its whole statement. The API's reads run in a thread of their own instead, on a
 * read-only connection to the same file (WAL: it sees every committed write at once, and never
 * waits for a writer). Started at the first read, again after a crash.
 */
export class SqliteReader {
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {}

  read<T>(sql: string, params: unknown[]): Promise<T> {
    const worker = (this.worker ??= this.start());
    const id = ++this.nextId;
    // As TypeORM's driver binds them: better-sqlite3 has no booleans.
    const bound = params.map((p) => (typeof p === 'boolean' ? Number(p) : p));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (rows) => resolve(rows as T), reject });
      worker.postMessage({ id, sql, params: bound });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(READER_SOURCE, {
      eval: true,
      workerData: {
        driver: require.resolve('better-sqlite3'),
        path: this.path,
        timeoutMs: this.timeoutMs,
      },
    });
    // An idle reader does not keep the process alive.
    worker.unref();
    worker.on('message', ({ id, rows, error }: ReaderAnswer) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (!error) waiting?.resolve(rows);
      else waiting?.reject(new SqliteReadError(error.message ?? 'read failed', error.code));
    });
    const failAll = () => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiting] of this.pending) {
        this.pending.delete(id);
        waiting.reject(new SqliteReadError('the reader thread stopped', 'SQLITE_IOERR'));
      }
    };
    worker.on('error', failAll);
    worker.on('exit', failAll);
    return worker;
  }
}

const readers = new WeakMap<DataSource, SqliteReader>();

/**
 * Gives an SQLite file's DataSource its reader thread (the API's; the command line's reads need
 * none), closed with it. An in-memory database has no file another connection could read.
 */
export function readInThread(dataSource: DataSource, timeoutMs: number): void {
  const options = dataSource.options;
  if (options.type !== 'better-sqlite3' || options.database === ':memory:') return;
  const reader = new SqliteReader(options.database, timeoutMs);
  readers.set(dataSource, reader);
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    await reader.close();
    return destroy();
  };
}

/** The reader thread of `dataSource`, if it has one. */
export function sqliteReaderOf(dataSource: DataSource): SqliteReader | undefined {
  return readers.get(dataSource);
}
