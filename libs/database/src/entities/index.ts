export * from './bigint.transformer';
export * from './covid-record.entity';
export * from './mpox-record.entity';
export * from './series-record.entity';

import { CovidRecordEntity } from './covid-record.entity';
import { MpoxRecordEntity } from './mpox-record.entity';

export const ENTITIES = [CovidRecordEntity, MpoxRecordEntity];
