export * from './api-token.entity';
export * from './bigint.transformer';
export * from './correction.entity';
export * from './country-summary.entity';
export * from './covid-record.entity';
export * from './history-horizon.entity';
export * from './mpox-record.entity';
export * from './population.entity';
export * from './region-day.entity';
export * from './revision-commit.entity';
export * from './revision.entity';
export * from './disease-record.entity';
export * from './source.entity';

import { ApiTokenEntity } from './api-token.entity';
import {
  CovidCorrectedDayEntity,
  CovidCorrectionEntity,
  MpoxCorrectedDayEntity,
  MpoxCorrectionEntity,
} from './correction.entity';
import { CovidCountrySummaryEntity, MpoxCountrySummaryEntity } from './country-summary.entity';
import { CovidRecordEntity } from './covid-record.entity';
import { HistoryHorizonEntity } from './history-horizon.entity';
import { MpoxRecordEntity } from './mpox-record.entity';
import { PopulationEntity } from './population.entity';
import { CovidRegionDayEntity, MpoxRegionDayEntity, RegionMemberEntity } from './region-day.entity';
import { CovidRevisionCommitEntity, MpoxRevisionCommitEntity } from './revision-commit.entity';
import { CovidRevisionEntity, MpoxRevisionEntity } from './revision.entity';
import { SourceEntity } from './source.entity';

/** An entity for every table the migrations create (docs/decisions/0032-entities-for-every-table.md). */
export const ENTITIES = [
  CovidRecordEntity,
  MpoxRecordEntity,
  CovidRevisionEntity,
  MpoxRevisionEntity,
  CovidRevisionCommitEntity,
  MpoxRevisionCommitEntity,
  CovidCorrectionEntity,
  MpoxCorrectionEntity,
  CovidCorrectedDayEntity,
  MpoxCorrectedDayEntity,
  RegionMemberEntity,
  CovidRegionDayEntity,
  MpoxRegionDayEntity,
  CovidCountrySummaryEntity,
  MpoxCountrySummaryEntity,
  ApiTokenEntity,
  SourceEntity,
  HistoryHorizonEntity,
  PopulationEntity,
];
