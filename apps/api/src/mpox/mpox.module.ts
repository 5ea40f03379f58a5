import { Module } from '@nestjs/common';
import { MPOX_SERIES, SeriesModule } from '@app/series';
import { ResponseCacheModule } from '../response-cache/response-cache.module';
import { MpoxChangesController } from './mpox-changes.controller';
import { MpoxCorrectionsController } from './mpox-corrections.controller';
import { MpoxVintagesController } from './mpox-vintages.controller';
import { MpoxCountriesController } from './mpox-countries.controller';
import { MpoxDataController } from './mpox-data.controller';
import { MpoxWeeklyController } from './mpox-weekly.controller';
import { MpoxPublicController } from './mpox-public.controller';
import { MpoxSeriesController } from './mpox-series.controller';

const mpoxSeries = SeriesModule.forSeries(MPOX_SERIES);

@Module({
  imports: [mpoxSeries, ResponseCacheModule],
  controllers: [
    MpoxPublicController,
    MpoxWeeklyController,
    MpoxDataController,
    MpoxCountriesController,
    MpoxChangesController,
    MpoxCorrectionsController,
    MpoxVintagesController,
    MpoxSeriesController,
  ],
  exports: [mpoxSeries],
})
export class MpoxModule {}
