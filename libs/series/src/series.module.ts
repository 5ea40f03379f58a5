import { DynamicModule, Inject, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DEFAULT_POOL_SIZE, PopulationRepository } from '@app/database';
import { ConcurrencyLimit } from './concurrency-limit';
import { READ_CACHE_COUNTS, ReadCache, ReadCacheCounters } from './read-cache';
import { RecordChangeModule } from './record-change.module';
import { RecordChangeService } from './record-change.service';
import { SeriesRepository } from './series.repository';
import { SeriesService } from './series.service';
import { SeriesDefinition } from './series.types';

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
            const cache = new ReadCache(
              config.cacheTtlMs,
              undefined,
              counters?.countsOf(definition.key),
            );
            // Writes of other instances (REDIS_URL): their records show at once here too.
            changes.onChange(definition.key, () => cache.invalidate());
            const population = new PopulationRepository(dataSource);
            return new SeriesService(
              definition,
              // Every database call answers within twice DB_TIMEOUT_MS, or fails as a 503.
              new SeriesRepository(dataSource, definition, 2 * config.db.timeoutMs),
              {
                cache,
                written: () => changes.announce(definition.key),
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
