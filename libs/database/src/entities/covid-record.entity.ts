import { Entity } from 'typeorm';
import { SeriesRecordEntity } from './series-record.entity';

@Entity('covid_data')
export class CovidRecordEntity extends SeriesRecordEntity {}
