import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DatabaseConfig } from '@app/config';

/** `DB_TYPE=mysql` runs the suites on MariaDB/MySQL; the default is SQLite. */
export const TEST_DB_TYPE = process.env.DB_TYPE === 'mysql' ? 'mysql' : 'sqlite';

export interface TestDatabase {
  config: Omit<DatabaseConfig, 'timeoutMs'>;
  drop(): Promise<void>;
}

function mysqlServer(): Omit<DatabaseConfig, 'type' | 'path' | 'name' | 'timeoutMs'> {
  return {
    host: process.env.DB_HOST ?? '127.0.0.1',
    port: Number(process.env.DB_PORT ?? 3306),
    user: process.env.DB_USER ?? 'root',
    password: process.env.DB_PASSWORD ?? '',
  };
}

/** A throw-away database: a fresh SQLite file, or a fresh MySQL database dropped afterwards. */
export async function createTestDatabase(
  type: 'sqlite' | 'mysql' = TEST_DB_TYPE,
): Promise<TestDatabase> {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  if (type === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'covid-api-test-'));
    return {
      config: {
        type,
        path: join(dir, 'test.sqlite'),
        host: '',
        port: 0,
        user: '',
        password: '',
        name: '',
      },
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
  }
  const server = mysqlServer();
  const name = `covid_test_${suffix}`;
  const admin = await createConnection({ ...server });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    config: { type, path: '', name, ...server },
    drop: async () => {
      const connection = await createConnection({ ...server });
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}
