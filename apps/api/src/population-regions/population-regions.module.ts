import { Module } from '@nestjs/common';
import { PopulationModule } from '@app/database';
import { HttpCacheModule } from '../http-cache/http-cache.module';
import { PopulationController } from './population.controller';
import { RegionsController } from './regions.controller';

/** What the derived figures rest on, public: the population table and the regions. */
@Module({
  imports: [HttpCacheModule, PopulationModule],
  controllers: [PopulationController, RegionsController],
})
export class PopulationRegionsModule {}
