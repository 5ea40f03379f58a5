import { Module } from '@nestjs/common';
import { MPOX_SERIES, SeriesModule } from '@app/series';
import { HttpCacheModule } from '../http-cache/http-cache.module';
import { MpoxChangesController } from './mpox-changes.controller';
import { MpoxCorrectionsController } from './mpox-corrections.controller';
import { MpoxCatalogController } from './mpox-catalog.controller';
import { MpoxDataController } from './mpox-data.controller';
import { MpoxHistoryController } from './mpox-history.controller';
import { MpoxPublicController } from './mpox-public.controller';
import { MpoxSeriesController } from './mpox-series.controller';

const mpoxSeries = SeriesModule.forSeries(MPOX_SERIES);

@Module({
  imports: [mpoxSeries, HttpCacheModule],
  controllers: [
    MpoxPublicController,
    MpoxHistoryController,
    MpoxDataController,
    MpoxCatalogController,
    MpoxChangesController,
    MpoxCorrectionsController,
    MpoxSeriesController,
  ],
  exports: [mpoxSeries],
})
export class MpoxModule {}
