import { Module } from '@nestjs/common';
import { HttpCacheModule } from '../http-cache/http-cache.module';
import { CovidModule } from '../covid/covid.module';
import { MpoxModule } from '../mpox/mpox.module';
import { StatsController } from './stats.controller';

@Module({
  imports: [CovidModule, MpoxModule, HttpCacheModule],
  controllers: [StatsController],
})
export class StatsModule {}
