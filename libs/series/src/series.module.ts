import { DynamicModule, Inject, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '@app/config';
import { ReadCache } from './read-cache';
import { SeriesRepository } from './series.repository';
import { SeriesService } from './series.service';
import { SeriesDefinition } from './series.types';

export const seriesServiceToken = (key: SeriesDefinition['key']): string => `SeriesService:${key}`;

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
      providers: [
        {
          provide: token,
          inject: [DataSource, APP_CONFIG],
          useFactory: (dataSource: DataSource, config: AppConfig) =>
            new SeriesService(
              definition,
              // Every database call answers within twice DB_TIMEOUT_MS, or fails as a 503.
              new SeriesRepository(dataSource, definition, 2 * config.db.timeoutMs),
              new ReadCache(config.cacheTtlMs),
            ),
        },
      ],
      exports: [token],
    };
  }
}
