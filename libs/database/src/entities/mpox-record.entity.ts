import { SeriesRecordEntity, SeriesTable } from './series-record.entity';

@SeriesTable('mpox_data')
export class MpoxRecordEntity extends SeriesRecordEntity {}
