export * from './record-lists.service';
export * from './series.module';
export * from './records.service';
export * from './countries.service';
