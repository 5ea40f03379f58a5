import { Module } from '@nestjs/common';
import { MPOX_SERIES, SeriesModule } from '@app/series';
import { ResponseCacheModule } from '../response-cache/response-cache.module';
import { MpoxDataController } from './mpox-data.controller';
import { MpoxHistoryController } from './mpox-history.controller';
import { MpoxPublicController } from './mpox-public.controller';

const mpoxSeries = SeriesModule.forSeries(MPOX_SERIES);

@Module({
  imports: [mpoxSeries, ResponseCacheModule],
  controllers: [MpoxPublicController, MpoxHistoryController, MpoxDataController],
  exports: [mpoxSeries],
})
export class MpoxModule {}
