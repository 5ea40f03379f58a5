export * from './record-lists.service';
export * from './record-reads.repository';
export * from './series.module';
export * from './series.service';
