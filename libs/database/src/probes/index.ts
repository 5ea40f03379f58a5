export * from './database-activity';
export * from './database-probe';
export * from './named-lock';
