import { Module } from '@nestjs/common';
import { MPOX_DISEASE, DiseaseModule } from '@app/diseases';
import { ResponseCacheModule } from '../response-cache/response-cache.module';
import { MpoxChangesController } from './mpox-changes.controller';
import { MpoxCorrectionsController } from './mpox-corrections.controller';
import { MpoxVintagesController } from './mpox-vintages.controller';
import { MpoxCountriesController } from './mpox-countries.controller';
import { MpoxDataController } from './mpox-data.controller';
import { MpoxWeeklyController } from './mpox-weekly.controller';
import { MpoxPublicController } from './mpox-public.controller';
import { MpoxSeriesController } from './mpox-series.controller';

const mpoxDisease = DiseaseModule.forDisease(MPOX_DISEASE);

@Module({
  imports: [mpoxDisease, ResponseCacheModule],
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
  exports: [mpoxDisease],
})
export class MpoxModule {}
