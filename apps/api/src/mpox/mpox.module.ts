import { Module } from '@nestjs/common';
import { MPOX_SERIES, SeriesModule } from '@app/series';
import { ResponseCacheModule } from '../response-cache/response-cache.module';
import { MpoxChangesController } from './mpox-changes.controller';
import { MpoxCatalogController } from './mpox-catalog.controller';
import { MpoxDataController } from './mpox-data.controller';
import { MpoxHistoryController } from './mpox-history.controller';
import { MpoxPublicController } from './mpox-public.controller';
import { MpoxSeriesController } from './mpox-series.controller';

const mpoxSeries = SeriesModule.forSeries(MPOX_SERIES);

@Module({
  imports: [mpoxSeries, ResponseCacheModule],
  controllers: [
    MpoxPublicController,
    MpoxHistoryController,
    MpoxDataController,
    MpoxCatalogController,
    MpoxChangesController,
    MpoxSeriesController,
  ],
  exports: [mpoxSeries],
})
export class MpoxModule {}
