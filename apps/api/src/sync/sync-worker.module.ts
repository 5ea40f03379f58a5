import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { ImporterModule } from '@app/importer';

/** What the sync worker thread runs on: the configuration, its own connection, the importer. */
@Module({})
export class SyncWorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SyncWorkerModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(config.db, { retryAttempts: 1 }),
        ImporterModule,
      ],
    };
  }
}
