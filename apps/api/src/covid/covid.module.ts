import { Module } from '@nestjs/common';
import { COVID_SERIES, SeriesModule } from '@app/series';
import { CovidDataController } from './covid-data.controller';
import { CovidPublicController } from './covid-public.controller';

const covidSeries = SeriesModule.forSeries(COVID_SERIES);

@Module({
  imports: [covidSeries],
  controllers: [CovidPublicController, CovidDataController],
  exports: [covidSeries],
})
export class CovidModule {}
