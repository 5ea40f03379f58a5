import { TEST_DB_TYPE } from './test-database';

/**
 * `it` and `describe` for what one database alone can show (MySQL's locks, SQLite's file):
 * they run on that database and are reported as skipped on the other. The one way the suites
 * say so (docs/testing.md).
 */
export function onlyOn(db: 'sqlite' | 'mysql'): { it: jest.It; describe: jest.Describe } {
  return TEST_DB_TYPE === db ? { it, describe } : { it: it.skip, describe: describe.skip };
}
