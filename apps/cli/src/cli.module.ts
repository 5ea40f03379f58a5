import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { ApiTokenRepository, DatabaseModule } from '@app/database';
import { ImporterModule } from '@app/importer';
import { COVID_DISEASE, MPOX_DISEASE, RecordWriterModule } from '@app/diseases';
import { ExportService } from './records/export.service';
import { RecordHistoryService } from './records/record-history.service';
import { TokenAdminService } from './tokens/token-admin.service';

/** Beyond InnoDB's default lock wait (50 s), so that a lock wait fails with the server's message. */
const CLI_QUERY_TIMEOUT_MS = 60_000;

/** The admin command line's services, on the API's configuration and database (migrations run). */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(config),
        // An import's one transaction may wait for another's until it commits (MySQL: its row
        // locks; SQLite: the write lock): longer than DB_TIMEOUT_MS, which bounds API requests.
        DatabaseModule.forRoot(config.db, {
          retryAttempts: 1,
          queryTimeoutMs: CLI_QUERY_TIMEOUT_MS,
        }),
        ImporterModule,
        // Each disease's write path and repositories: the importer's instances.
        RecordWriterModule.forDisease(COVID_DISEASE),
        RecordWriterModule.forDisease(MPOX_DISEASE),
      ],
      providers: [ApiTokenRepository, TokenAdminService, ExportService, RecordHistoryService],
    };
  }
}
