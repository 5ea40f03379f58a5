import { Module } from '@nestjs/common';
import { COVID_DISEASE, DiseaseModule } from '@app/diseases';
import { ResponseCacheModule } from '../response-cache/response-cache.module';
import { CovidChangesController } from './covid-changes.controller';
import { CovidCorrectionsController } from './covid-corrections.controller';
import { CovidVintagesController } from './covid-vintages.controller';
import { CovidCountriesController } from './covid-countries.controller';
import { CovidDataController } from './covid-data.controller';
import { CovidWeeklyController } from './covid-weekly.controller';
import { CovidPublicController } from './covid-public.controller';
import { CovidSeriesController } from './covid-series.controller';

const covidDisease = DiseaseModule.forDisease(COVID_DISEASE);

@Module({
  imports: [covidDisease, ResponseCacheModule],
  controllers: [
    CovidPublicController,
    CovidWeeklyController,
    CovidDataController,
    CovidCountriesController,
    CovidChangesController,
    CovidCorrectionsController,
    CovidVintagesController,
    CovidSeriesController,
  ],
  exports: [covidDisease],
})
export class CovidModule {}
