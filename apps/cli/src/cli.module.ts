import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { ApiTokenRepository, DatabaseModule } from '@app/database';
import { ImporterModule } from '@app/importer';
import { ExportService } from './records/export.service';
import { RecordHistoryService } from './records/record-history.service';
import { TokenAdminService } from './tokens/token-admin.service';

/** The admin command line's services, on the API's configuration and database (migrations run). */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(config.db, { retryAttempts: 1 }),
        ImporterModule,
      ],
      providers: [ApiTokenRepository, TokenAdminService, ExportService, RecordHistoryService],
    };
  }
}
