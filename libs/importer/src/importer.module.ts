import { Module } from '@nestjs/common';
import { PopulationRepository, SourceRepository } from '@app/database';
import { PopulationImportService } from './population-import.service';
import { FileImportService } from './file-import.service';
import { ImportService } from './import.service';
import { UrlImportService } from './url-import.service';

/**
 * The import engine (files and URLs into a disease's table), shared by the command line and the
 * API's scheduled sync. Needs the configuration and a database connection from its importer.
 */
@Module({
  providers: [
    ImportService,
    FileImportService,
    UrlImportService,
    SourceRepository,
    PopulationRepository,
    PopulationImportService,
  ],
  exports: [
    ImportService,
    FileImportService,
    UrlImportService,
    SourceRepository,
    PopulationRepository,
    PopulationImportService,
  ],
})
export class ImporterModule {}
