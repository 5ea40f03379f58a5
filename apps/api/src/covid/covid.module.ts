import { Module } from '@nestjs/common';
import { COVID_SERIES, SeriesModule } from '@app/series';
import { HttpCacheModule } from '../http-cache/http-cache.module';
import { CovidChangesController } from './covid-changes.controller';
import { CovidCorrectionsController } from './covid-corrections.controller';
import { CovidCatalogController } from './covid-catalog.controller';
import { CovidDataController } from './covid-data.controller';
import { CovidHistoryController } from './covid-history.controller';
import { CovidPublicController } from './covid-public.controller';
import { CovidSeriesController } from './covid-series.controller';

const covidSeries = SeriesModule.forSeries(COVID_SERIES);

@Module({
  imports: [covidSeries, HttpCacheModule],
  controllers: [
    CovidPublicController,
    CovidHistoryController,
    CovidDataController,
    CovidCatalogController,
    CovidChangesController,
    CovidCorrectionsController,
    CovidSeriesController,
  ],
  exports: [covidSeries],
})
export class CovidModule {}
