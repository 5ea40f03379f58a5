import { Module } from '@nestjs/common';
import { COVID_SERIES, SeriesModule } from '@app/series';
import { ResponseCacheModule } from '../response-cache/response-cache.module';
import { CovidChangesController } from './covid-changes.controller';
import { CovidCatalogController } from './covid-catalog.controller';
import { CovidDataController } from './covid-data.controller';
import { CovidHistoryController } from './covid-history.controller';
import { CovidPublicController } from './covid-public.controller';
import { CovidSeriesController } from './covid-series.controller';

const covidSeries = SeriesModule.forSeries(COVID_SERIES);

@Module({
  imports: [covidSeries, ResponseCacheModule],
  controllers: [
    CovidPublicController,
    CovidHistoryController,
    CovidDataController,
    CovidCatalogController,
    CovidChangesController,
    CovidSeriesController,
  ],
  exports: [covidSeries],
})
export class CovidModule {}
