import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, AppConfigModule } from '@app/config';
import { ApiTokenRepository, DatabaseModule, SourceRepository } from '@app/database';
import { ExportService } from './records/export.service';
import { ImportService } from './records/import.service';
import { UrlImportService } from './records/url-import.service';
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
      ],
      providers: [
        ApiTokenRepository,
        TokenAdminService,
        ImportService,
        ExportService,
        SourceRepository,
        UrlImportService,
      ],
    };
  }
}
