// The runner and what statements are built with; its other files are its own.
export { SqlReader, SqlRunner, SqlStatement } from './sql-runner';
export { SqlSession, LOCK_RETRY_MAX_MS } from './write-transaction';
export { DatabaseDeadlineError } from './deadline';
export * from './sql-lists';
