export * from './record-lists.service';
export * from './series.module';
export * from './series.service';
