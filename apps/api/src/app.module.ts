import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { Logger } from 'pino';
import { AppConfig, AppConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { AuthModule } from './auth/auth.module';
import { TokenGuard } from './auth/token.guard';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { KnownQueryParametersInterceptor } from './query-parameters/known-query-parameters.interceptor';
import { ValidationPipe } from './common/validation.pipe';
import { CovidModule } from './covid/covid.module';
import { PopulationRegionsModule } from './population-regions/population-regions.module';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { MpoxModule } from './mpox/mpox.module';
import { ClientThrottlerGuard } from './rate-limit/client-throttler.guard';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { StatsModule } from './stats/stats.module';
import { SyncModule } from './sync/sync.module';

/**
 * The application's global guards, in the order they run: the rate limit first (so that guessing
 * tokens is limited too), then the token check. Each is registered (`APP_GUARD`) by its own
 * module, and Nest runs them in the order their modules are imported below; the answers served
 * before Nest's router (`serveCachedResponses`) run this list, the same instances in this order.
 */
export const GLOBAL_GUARDS = [ClientThrottlerGuard, TokenGuard] as const;

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
        // In the order of GLOBAL_GUARDS: no module imported above imports either.
        RateLimitModule,
        AuthModule,
        CovidModule,
        MpoxModule,
        StatsModule,
        PopulationRegionsModule,
        SyncModule,
        HealthModule,
      ],
      providers: [
        // Also under its class: the answers served before Nest's router use the same instance.
        AllExceptionsFilter,
        { provide: APP_FILTER, useExisting: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: ValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: KnownQueryParametersInterceptor },
      ],
    };
  }
}
