import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { Logger } from 'pino';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { AuthModule } from './auth/auth.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { ValidationPipe } from './common/validation.pipe';
import { CovidModule } from './covid/covid.module';
import { FiguresModule } from './figures/figures.module';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { MpoxModule } from './mpox/mpox.module';
import { StatsModule } from './stats/stats.module';
import { SyncModule } from './sync/sync.module';

/** Wires configuration, logs, database, auth and rate limiting, and the feature modules. */
@Module({})
export class AppModule {
  /** `logger`: the process's pino logger (see `createAppLogger`). */
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule.forRoot(logger),
        DatabaseModule.forRoot(config.db),
        MetricsModule,
        AuthModule,
        CovidModule,
        MpoxModule,
        StatsModule,
        FiguresModule,
        SyncModule,
        HealthModule,
      ],
      providers: [
        // Also under its class: the answers served before Nest's router use the same instance.
        AllExceptionsFilter,
        { provide: APP_FILTER, useExisting: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: ValidationPipe },
      ],
    };
  }
}
