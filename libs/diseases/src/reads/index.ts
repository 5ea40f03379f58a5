export * from './record-lists.service';
export * from './disease.module';
export * from './records.service';
export * from './countries.service';
