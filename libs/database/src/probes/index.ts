export * from './database-probe';
export * from './named-lock';
