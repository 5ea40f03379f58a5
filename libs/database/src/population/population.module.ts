import { Module } from '@nestjs/common';
import { PopulationRepository } from './population.repository';

/** The population table's repository, one instance for the application. */
@Module({ providers: [PopulationRepository], exports: [PopulationRepository] })
export class PopulationModule {}
