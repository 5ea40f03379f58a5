import { DiseaseRecordEntity, DiseaseTable } from './disease-record.entity';

@DiseaseTable('mpox_data')
export class MpoxRecordEntity extends DiseaseRecordEntity {}
