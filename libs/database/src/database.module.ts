import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabaseConfig } from '@app/config';
import { buildDataSourceOptions } from './data-source-options';
import { discardStuckConnections } from './discard-stuck-connections';
import { openMigratedDataSource } from './run-migrations';
import { SqlRunner } from './sql-runner';

/**
 * The TypeORM connection for either driver; pending migrations run before the app serves. Its
 * `SqlRunner`, without a deadline, serves the tokens', sources' and population's repositories;
 * the records' repositories get theirs from `RecordRepositoriesModule`.
 */
@Module({})
export class DatabaseModule {
  /**
   * `retryAttempts`: connection attempts before giving up (the admin command line fails fast).
   * `queryTimeoutMs`: the deadline of a MySQL query, or of SQLite's wait for its write lock
   * (`DB_TIMEOUT_MS` unless given).
   */
  static forRoot(
    db: DatabaseConfig,
    { retryAttempts = 10, queryTimeoutMs = db.timeoutMs } = {},
  ): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: SqlRunner,
          inject: [DataSource],
          useFactory: (ds: DataSource) => new SqlRunner(ds),
        },
      ],
      exports: [SqlRunner],
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...buildDataSourceOptions(db, queryTimeoutMs),
            retryAttempts,
            retryDelay: 3000,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await openMigratedDataSource(options!);
            discardStuckConnections(dataSource);
            return dataSource;
          },
        }),
      ],
    };
  }
}
