/** Classifies driver errors (wrapped or not by TypeORM's QueryFailedError) without leaking them. */
interface DriverErrorLike {
  code?: string;
  errno?: number;
  driverError?: DriverErrorLike;
  message?: string;
}

function driverError(error: unknown): DriverErrorLike | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as DriverErrorLike;
  return e.driverError ?? e;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = driverError(error);
  return (
    e?.code === 'ER_DUP_ENTRY' ||
    e?.errno === 1062 ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * A bulk write that gave up: other writers kept creating or deleting the records it writes, round
 * after round. Its transaction is rolled back; the same write may succeed a moment later.
 */
export class WriteRaceLostError extends Error {
  constructor() {
    super('other writers kept changing the same records');
    this.name = 'WriteRaceLostError';
  }
}

export function isWriteRaceLost(error: unknown): boolean {
  return error instanceof WriteRaceLostError;
}

/** MySQL chose this transaction as a deadlock's victim and rolled it back: it may be run again. */
export function isDeadlock(error: unknown): boolean {
  const e = driverError(error);
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213;
}

/** SQLite: another connection (the CLI, the sync's thread) holds the write lock. */
export function isSqliteBusy(error: unknown): boolean {
  return driverError(error)?.code === 'SQLITE_BUSY';
}

/** mysql2 stopped waiting for a query's answer (`DB_TIMEOUT_MS`); the server may still run it. */
export function isQueryTimeout(error: unknown): boolean {
  return driverError(error)?.code === 'PROTOCOL_SEQUENCE_TIMEOUT';
}

const CONNECTION_CODES = new Set([
  'DATABASE_DEADLINE',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  // A statement killed on the server (past its deadline, or by an operator).
  'ER_QUERY_INTERRUPTED',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_FULL',
]);

/** True when the database cannot serve the request right now (answer 503, not 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = driverError(error);
  if (!e) return false;
  if (e.code && (CONNECTION_CODES.has(e.code) || e.code.startsWith('SQLITE_IOERR'))) return true;
  const message = e.message ?? '';
  return (
    /Pool is closed|Connection lost|connection is in closed state|Can't add new command when connection is in closed state|Queue limit reached|The database connection is not open|Connection is not established/i.test(
      message,
    ) || (error as { name?: string }).name === 'CannotExecuteNotConnectedError'
  );
}
