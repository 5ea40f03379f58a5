import { DiseaseRecordEntity, DiseaseTable } from './disease-record.entity';

@DiseaseTable('covid_data')
export class CovidRecordEntity extends DiseaseRecordEntity {}
