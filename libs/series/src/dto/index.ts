export * from './list-query.dto';
export * from './record-body.dto';
export * from './stats-query.dto';
export * from './validators';
export * from './record-validation';
