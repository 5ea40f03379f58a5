import { DynamicModule, FactoryProvider, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { diseaseToken } from '@app/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { BulkLoadRepository } from './bulk/bulk-load.repository';
import { FiguresRepository } from './derived-figures/figures.repository';
import { CorrectionsRepository } from './history/corrections.repository';
import { RevisionPruner } from './history/revision-pruner';
import { RevisionRepository } from './history/revision.repository';
import { VintagesRepository } from './history/vintages.repository';
import { RecordReadsRepository } from './reads/record-reads.repository';
import { DiseaseDefinition } from './disease.types';
import { RecordWritesRepository } from './writes/record-writes.repository';

/** What `RecordRepositoriesModule.forDisease` provides, each under `diseaseToken(Class, key)`. */
export const RECORD_REPOSITORIES = [
  RevisionRepository,
  RecordReadsRepository,
  FiguresRepository,
  CorrectionsRepository,
  VintagesRepository,
  RecordWritesRepository,
  BulkLoadRepository,
  RevisionPruner,
] as const;

export interface RecordRepositoriesOptions {
  /**
   * Every database call answers within twice `DB_TIMEOUT_MS`, or fails as "database unavailable"
   * (the API's requests); without, none (imports, the command line's long reads and writes).
   */
  deadline?: boolean;
}

type AnyClass = abstract new (...args: never[]) => unknown;

/**
 * The repositories of one disease's records, one instance each, built here only (each receives
 * the others it uses): injected with `@InjectDisease(Repository, key)`.
 */
@Module({})
export class RecordRepositoriesModule {
  /** One module per disease and deadline: importing it twice gives the same instances. */
  private static readonly modules = new Map<string, DynamicModule>();

  static forDisease(
    definition: DiseaseDefinition,
    { deadline = false }: RecordRepositoriesOptions = {},
  ): DynamicModule {
    const id = `${definition.key}:${deadline}`;
    const known = this.modules.get(id);
    if (known) return known;
    const token = (type: AnyClass) => diseaseToken(type, definition.key);
    const provide = (
      type: AnyClass,
      inject: AnyClass[],
      useFactory: (...args: never[]) => unknown,
    ): FactoryProvider => ({
      provide: token(type),
      inject: [DataSource, APP_CONFIG, ...inject.map(token)],
      useFactory,
    });
    const deadlineMs = (config: AppConfig) => (deadline ? 2 * config.db.timeoutMs : undefined);
    const mysql = (dataSource: DataSource) => dataSource.options.type === 'mysql';
    const reads = (reads: RecordReadsRepository) => ({
      rows: (sql: string, params?: unknown[]) => reads.rows(sql, params),
      source: (asOf?: number) => reads.source(asOf),
    });
    const module: DynamicModule = {
      module: RecordRepositoriesModule,
      providers: [
        provide(
          RevisionRepository,
          [],
          (dataSource: DataSource, config: AppConfig) =>
            new RevisionRepository(dataSource, definition, deadlineMs(config)),
        ),
        provide(
          RecordReadsRepository,
          [RevisionRepository],
          (dataSource: DataSource, config: AppConfig, revisions: RevisionRepository) =>
            new RecordReadsRepository(dataSource, definition, revisions, deadlineMs(config)),
        ),
        provide(
          FiguresRepository,
          [RecordReadsRepository],
          (dataSource: DataSource, _config: AppConfig, records: RecordReadsRepository) => {
            const { rows, source } = reads(records);
            return new FiguresRepository(rows, source, definition.key, mysql(dataSource));
          },
        ),
        provide(
          CorrectionsRepository,
          [RecordReadsRepository],
          (dataSource: DataSource, _config: AppConfig, records: RecordReadsRepository) =>
            new CorrectionsRepository(reads(records).rows, definition.key, mysql(dataSource)),
        ),
        provide(
          VintagesRepository,
          [RecordReadsRepository],
          (dataSource: DataSource, _config: AppConfig, records: RecordReadsRepository) =>
            new VintagesRepository(reads(records).rows, definition.key, mysql(dataSource)),
        ),
        provide(
          RecordWritesRepository,
          [RevisionRepository],
          (dataSource: DataSource, config: AppConfig, revisions: RevisionRepository) =>
            new RecordWritesRepository(dataSource, definition, revisions, deadlineMs(config)),
        ),
        provide(
          BulkLoadRepository,
          [RevisionRepository],
          (dataSource: DataSource, config: AppConfig, revisions: RevisionRepository) =>
            new BulkLoadRepository(dataSource, definition, revisions, deadlineMs(config)),
        ),
        provide(
          RevisionPruner,
          [],
          (dataSource: DataSource) => new RevisionPruner(dataSource, definition),
        ),
      ],
      exports: RECORD_REPOSITORIES.map(token),
    };
    this.modules.set(id, module);
    return module;
  }
}
