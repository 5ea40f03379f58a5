import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '@app/config';
import { DatabaseLogger } from './database-logger';
import { DEFAULT_POOL_SIZE } from './pool-size';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export { DEFAULT_POOL_SIZE };

/** TypeORM options for either driver. `synchronize` is never on: the schema comes from migrations. */
export function buildDataSourceOptions(
  db: DatabaseConfig,
  queryTimeoutMs = db.timeoutMs,
): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    logging: false,
    logger: new DatabaseLogger(),
  } as const;
  if (db.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      host: db.host,
      port: db.port,
      username: db.user,
      password: db.password,
      database: db.name,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      dateStrings: ['DATE'],
      supportBigNumbers: true,
      bigNumberStrings: false,
      connectTimeout: db.timeoutMs,
      // Every query gets a deadline: a database that hangs (paused, network black hole) makes
      // requests fail with PROTOCOL_SEQUENCE_TIMEOUT (503) instead of waiting forever.
      enableQueryTimeout: true,
      maxQueryExecutionTime: queryTimeoutMs,
      poolSize: db.poolSize ?? DEFAULT_POOL_SIZE,
      extra: {
        // Fail fast instead of queueing forever when the database is gone.
        queueLimit: 200,
        enableKeepAlive: true,
        decimalNumbers: true,
        // SqlRunner.batch sends a write transaction in one round trip; every query binds its values.
        multipleStatements: true,
      },
    };
  }
  if (db.path !== ':memory:') mkdirSync(dirname(db.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: db.path,
    enableWAL: db.path !== ':memory:',
    timeout: queryTimeoutMs,
    prepareDatabase: (sqlite: { pragma: (sql: string) => unknown }) => {
      sqlite.pragma('synchronous = NORMAL');
      sqlite.pragma('foreign_keys = ON');
    },
  };
}
