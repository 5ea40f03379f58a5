import { Module } from '@nestjs/common';
import { CovidModule } from '../covid/covid.module';
import { MpoxModule } from '../mpox/mpox.module';
import { StatsController } from './stats.controller';

@Module({
  imports: [CovidModule, MpoxModule],
  controllers: [StatsController],
})
export class StatsModule {}
