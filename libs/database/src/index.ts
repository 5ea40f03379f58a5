export * from './data-source-options';
export * from './database-errors';
export * from './entities';
export * from './migrations';
export * from './run-migrations';
export * from './database.module';
export * from './discard-stuck-connections';
export * from './database-logger';
