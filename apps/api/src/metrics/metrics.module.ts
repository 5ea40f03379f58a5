import { Global, Module } from '@nestjs/common';
import { DatabaseActivity } from '@app/database';
import { READ_CACHE_COUNTS } from '@app/diseases';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * The application's metrics (`GET /api/metrics`). Global: the read caches (`DiseaseModule`) and the
 * sync report into it wherever they are provided.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    MetricsService,
    DatabaseActivity,
    { provide: READ_CACHE_COUNTS, useExisting: MetricsService },
  ],
  exports: [MetricsService, READ_CACHE_COUNTS],
})
export class MetricsModule {}
