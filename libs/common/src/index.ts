export * from './api-error';
export * from './messages';
export * from './country';
export * from './dates';
export * from './token-hash';
export * from './describe-error';
export * from './csv';
export * from './source-name';
