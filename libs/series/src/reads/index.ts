export * from './record-lists.service';
export * from './series.module';
export * from './series.service';
export * from './country-answers';
