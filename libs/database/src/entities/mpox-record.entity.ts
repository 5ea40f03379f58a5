import { Entity } from 'typeorm';
import { SeriesRecordEntity } from './series-record.entity';

@Entity('mpox_data')
export class MpoxRecordEntity extends SeriesRecordEntity {}
