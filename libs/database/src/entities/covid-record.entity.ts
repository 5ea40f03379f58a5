import { SeriesRecordEntity, SeriesTable } from './series-record.entity';

@SeriesTable('covid_data')
export class CovidRecordEntity extends SeriesRecordEntity {}
