import { ConcurrencyLimit, diseaseToken } from '@app/common';
import { DynamicModule, FactoryProvider, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import {
  CorrectionsRepository,
  DEFAULT_POOL_SIZE,
  DerivedFiguresRepository,
  PopulationModule,
  PopulationRepository,
  RecordReadsRepository,
  RevisionRepository,
  DiseaseDefinition,
  VintagesRepository,
} from '@app/database';
import { DerivedFiguresService } from '../derived-figures/derived-figures.service';
import { CorrectionsService } from '../history/corrections.service';
import { RevisionsService } from '../history/revisions.service';
import { VintagesService } from '../history/vintages.service';
import { READ_CACHE_COUNTS, ReadCache, ReadCacheCounters } from '../read-cache';
import { WeeklyService } from '../weekly/weekly.service';
import { RecordChangeModule } from '../writes/record-change.module';
import { RecordChangeService } from '../writes/record-change.service';
import { RecordWriter } from '../writes/record-writer.service';
import { RecordWriterModule } from '../writes/record-writer.module';
import { CountriesService } from './countries.service';
import { RecordsService } from './records.service';

/**
 * Page queries of uncached lists that may run at once, per disease: a quarter of the MySQL pool
 * (both diseases together: half), at least one. SQLite's driver runs one query at a time anyway.
 */
export function listPageQueries(config: AppConfig): number {
  if (config.db.type !== 'mysql') return 1;
  return Math.max(1, Math.floor((config.db.poolSize ?? DEFAULT_POOL_SIZE) / 4));
}

/** The services a controller names, per disease: what `forDisease` exports. */
export const DISEASE_SERVICES = [
  RecordsService,
  RevisionsService,
  CountriesService,
  CorrectionsService,
  VintagesService,
  DerivedFiguresService,
  WeeklyService,
] as const;

/**
 * Provides one disease's services (`DISEASE_SERVICES`), each once, injected by Nest under
 * `diseaseToken(Service, key)` (`@InjectDisease(Service, key)`), over that disease's read cache,
 * list turns, repositories and write path.
 */
@Module({})
export class DiseaseModule {
  static forDisease(definition: DiseaseDefinition): DynamicModule {
    const token = (type: abstract new (...args: never[]) => unknown) =>
      diseaseToken(type, definition.key);
    const provide = <T>(
      type: abstract new (...args: never[]) => T,
      inject: FactoryProvider['inject'],
      useFactory: (...args: never[]) => T,
    ): FactoryProvider => ({ provide: token(type), inject, useFactory });
    const writes = RecordWriterModule.forDisease(definition, { requests: true });
    return {
      module: DiseaseModule,
      imports: [
        RecordChangeModule,
        PopulationModule,
        // The repositories of the disease, one instance each, and its write path; each call
        // within twice DB_TIMEOUT_MS, or a 503.
        writes,
      ],
      providers: [
        provide(
          ReadCache,
          [
            APP_CONFIG,
            RecordChangeService,
            token(RecordReadsRepository),
            { token: READ_CACHE_COUNTS, optional: true },
          ],
          (
            config: AppConfig,
            changes: RecordChangeService,
            reads: RecordReadsRepository,
            counters?: ReadCacheCounters,
          ) => {
            const cache = new ReadCache(
              config.cacheTtlMs,
              undefined,
              counters?.countsOf(definition.key),
              reads.version,
            );
            // This instance's writes (its RecordWriter's notice) and, with REDIS_URL, the other
            // instances' drop the cached reads at once.
            changes.onChange(definition.key, () => cache.invalidate());
            return cache;
          },
        ),
        // The turns of the uncached lists' page queries: however many clients pull dumps at
        // once, they never take the whole connection pool. Extra pages wait their turn.
        provide(ConcurrencyLimit, [APP_CONFIG], (config: AppConfig) => {
          return new ConcurrencyLimit(listPageQueries(config));
        }),
        provide(
          RevisionsService,
          [token(RevisionRepository), token(ConcurrencyLimit)],
          (revisions: RevisionRepository, listPages: ConcurrencyLimit) =>
            new RevisionsService(revisions, listPages),
        ),
        provide(
          CountriesService,
          [token(RecordReadsRepository), token(ReadCache)],
          (repository: RecordReadsRepository, cache: ReadCache) =>
            new CountriesService(repository, cache),
        ),
        provide(
          CorrectionsService,
          [
            token(CorrectionsRepository),
            token(DerivedFiguresRepository),
            token(ReadCache),
            token(ConcurrencyLimit),
          ],
          (
            corrections: CorrectionsRepository,
            figures: DerivedFiguresRepository,
            cache: ReadCache,
            listPages: ConcurrencyLimit,
          ) =>
            new CorrectionsService(corrections, cache, listPages, (key) => figures.placeName(key)),
        ),
        provide(
          VintagesService,
          [token(VintagesRepository), token(ConcurrencyLimit)],
          (vintages: VintagesRepository, listPages: ConcurrencyLimit) =>
            new VintagesService(vintages, listPages),
        ),
        provide(
          DerivedFiguresService,
          [
            token(DerivedFiguresRepository),
            PopulationRepository,
            token(ReadCache),
            token(ConcurrencyLimit),
            token(RevisionsService),
            token(CorrectionsService),
            token(VintagesService),
          ],
          (
            figures: DerivedFiguresRepository,
            population: PopulationRepository,
            cache: ReadCache,
            listPages: ConcurrencyLimit,
            revisions: RevisionsService,
            corrections: CorrectionsService,
            vintages: VintagesService,
          ) => {
            return new DerivedFiguresService(
              figures,
              () => population.all(),
              cache,
              listPages,
              revisions,
              corrections,
              vintages,
            );
          },
        ),
        provide(
          WeeklyService,
          [
            token(RecordReadsRepository),
            token(DerivedFiguresRepository),
            token(DerivedFiguresService),
            token(CorrectionsService),
            token(ReadCache),
          ],
          (
            repository: RecordReadsRepository,
            days: DerivedFiguresRepository,
            figures: DerivedFiguresService,
            corrections: CorrectionsService,
            cache: ReadCache,
          ) => new WeeklyService(repository, days, figures, corrections, cache),
        ),
        provide(
          RecordsService,
          [
            token(RecordReadsRepository),
            token(RecordWriter),
            token(RevisionsService),
            token(ReadCache),
            token(ConcurrencyLimit),
          ],
          (
            repository: RecordReadsRepository,
            writer: RecordWriter,
            revisions: RevisionsService,
            cache: ReadCache,
            listPages: ConcurrencyLimit,
          ) => new RecordsService(definition, repository, writer, revisions, cache, listPages),
        ),
      ],
      // The write path too: the scheduled sync makes the worker's writes known through it.
      exports: [...DISEASE_SERVICES.map(token), writes],
    };
  }
}
