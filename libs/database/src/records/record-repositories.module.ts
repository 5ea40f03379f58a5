import { DynamicModule, FactoryProvider, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { diseaseToken } from '@app/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { SqlRunner } from '../sql-runner';
import { BulkLoadRepository } from './bulk/bulk-load.repository';
import { DerivedFiguresRepository } from './derived-figures/derived-figures.repository';
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
  DerivedFiguresRepository,
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
 * the others it uses), all running their SQL through the module's one `SqlRunner`: injected with
 * `@InjectDisease(Repository, key)`.
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
    /** `type`, made by `make` from the module's runner and the repositories `uses` names. */
    const provide = <T extends AnyClass[]>(
      type: AnyClass,
      uses: [...T],
      make: (sql: SqlRunner, ...used: { [K in keyof T]: InstanceType<T[K]> }) => unknown,
    ): FactoryProvider => ({
      provide: token(type),
      inject: [token(SqlRunner), ...uses.map(token)],
      useFactory: make as (...args: unknown[]) => unknown,
    });
    const runner: FactoryProvider = {
      provide: token(SqlRunner),
      inject: [DataSource, APP_CONFIG],
      useFactory: (dataSource: DataSource, config: AppConfig) =>
        new SqlRunner(dataSource, deadline ? 2 * config.db.timeoutMs : undefined),
    };
    const module: DynamicModule = {
      module: RecordRepositoriesModule,
      providers: [
        runner,
        provide(RevisionRepository, [], (sql) => new RevisionRepository(sql, definition)),
        provide(
          RecordReadsRepository,
          [RevisionRepository],
          (sql, revisions) => new RecordReadsRepository(sql, definition, revisions),
        ),
        provide(
          DerivedFiguresRepository,
          [RecordReadsRepository],
          (sql, records) =>
            new DerivedFiguresRepository(sql, (asOf) => records.source(asOf), definition.key),
        ),
        provide(CorrectionsRepository, [], (sql) => new CorrectionsRepository(sql, definition.key)),
        provide(VintagesRepository, [], (sql) => new VintagesRepository(sql, definition.key)),
        provide(
          RecordWritesRepository,
          [RevisionRepository],
          (sql, revisions) => new RecordWritesRepository(sql, definition, revisions),
        ),
        provide(
          BulkLoadRepository,
          [RevisionRepository],
          (sql, revisions) => new BulkLoadRepository(sql, definition, revisions),
        ),
        provide(RevisionPruner, [], (sql) => new RevisionPruner(sql, definition)),
      ],
      exports: RECORD_REPOSITORIES.map(token),
    };
    this.modules.set(id, module);
    return module;
  }
}
