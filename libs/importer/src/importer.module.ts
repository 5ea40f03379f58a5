import { Module } from '@nestjs/common';
import { PopulationModule, SourceRepository } from '@app/database';
import { COVID_DISEASE, MPOX_DISEASE, RecordWriterModule } from '@app/diseases';
import { PopulationImportService } from './population-import.service';
import { FileImportService } from './file-import.service';
import { ImportService } from './import.service';
import { UrlImportService } from './url-import.service';

/**
 * The import engine (files and URLs into a disease's table), shared by the command line and the
 * API's scheduled sync. Needs the configuration and a database connection from its importer.
 */
@Module({
  // Each disease's write path: no deadline (an import is long), an announcement for its notice.
  imports: [
    PopulationModule,
    RecordWriterModule.forDisease(COVID_DISEASE),
    RecordWriterModule.forDisease(MPOX_DISEASE),
  ],
  providers: [
    ImportService,
    FileImportService,
    UrlImportService,
    SourceRepository,
    PopulationImportService,
  ],
  exports: [
    ImportService,
    FileImportService,
    UrlImportService,
    SourceRepository,
    PopulationModule,
    PopulationImportService,
  ],
})
export class ImporterModule {}
