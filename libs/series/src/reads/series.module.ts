import { ConcurrencyLimit } from '@app/common';
import { DynamicModule, Inject, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '@app/config';
import {
  DEFAULT_POOL_SIZE,
  PopulationRepository,
  SeriesDefinition,
  RecordReadsRepository,
} from '@app/database';
import { READ_CACHE_COUNTS, ReadCache, ReadCacheCounters } from '../read-cache';
import { RecordChangeModule } from '../writes/record-change.module';
import { RecordChangeService } from '../writes/record-change.service';
import { RecordWriter } from '../writes/record-writer.service';
import { SeriesService } from './series.service';

export const seriesServiceToken = (key: SeriesDefinition['key']): string => `SeriesService:${key}`;

/**
 * Page queries of uncached lists that may run at once, per disease: a quarter of the MySQL pool
 * (both diseases together: half), at least one. SQLite's driver runs one query at a time anyway.
 */
export function listPageQueries(config: AppConfig): number {
  if (config.db.type !== 'mysql') return 1;
  return Math.max(1, Math.floor((config.db.poolSize ?? DEFAULT_POOL_SIZE) / 4));
}

/** Injects the SeriesService of one disease. */
export const InjectSeries = (key: SeriesDefinition['key']): ParameterDecorator =>
  Inject(seriesServiceToken(key));

/** Provides the SeriesService of one disease, bound to its table. */
@Module({})
export class SeriesModule {
  static forSeries(definition: SeriesDefinition): DynamicModule {
    const token = seriesServiceToken(definition.key);
    return {
      module: SeriesModule,
      imports: [RecordChangeModule],
      providers: [
        {
          provide: token,
          inject: [
            DataSource,
            APP_CONFIG,
            RecordChangeService,
            { token: READ_CACHE_COUNTS, optional: true },
          ],
          useFactory: (
            dataSource: DataSource,
            config: AppConfig,
            changes: RecordChangeService,
            counters?: ReadCacheCounters,
          ) => {
            // Every database call answers within twice DB_TIMEOUT_MS, or fails as a 503.
            const deadlineMs = 2 * config.db.timeoutMs;
            const reads = new RecordReadsRepository(dataSource, definition, deadlineMs);
            const cache = new ReadCache(
              config.cacheTtlMs,
              undefined,
              counters?.countsOf(definition.key),
              reads.version,
            );
            // This instance's writes (its RecordWriter's notice) and, with REDIS_URL, the other
            // instances' drop the cached reads at once.
            changes.onChange(definition.key, () => cache.invalidate());
            const population = new PopulationRepository(dataSource);
            return new SeriesService(
              definition,
              reads,
              // Its notice drops `cache` (the listener above) and tells the other instances.
              RecordWriter.open(dataSource, definition, changes, deadlineMs),
              {
                cache,
                listPages: new ConcurrencyLimit(listPageQueries(config)),
                population: () => population.all(),
              },
            );
          },
        },
      ],
      exports: [token],
    };
  }
}
