import { createRequire } from 'node:module';

/** The few better-sqlite3 calls the tests make on a database file, outside the app. */
export interface SqliteFile {
  pragma(sql: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): { all(): unknown[] };
  close(): void;
}

type SqliteConstructor = new (path: string, options?: { readonly?: boolean }) => SqliteFile;

/** better-sqlite3 ships no type declarations; the driver itself is the app's. */
const Sqlite = createRequire(__filename)('better-sqlite3') as SqliteConstructor;

export function openSqliteFile(path: string, options?: { readonly?: boolean }): SqliteFile {
  return new Sqlite(path, options);
}
