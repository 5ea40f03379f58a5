export * from './record-rules';
export * from './rule-decorators';
export * from './record-problems';
