export * from './app-config';
export * from './config.module';
export * from './env.validation';
export * from './rate-budget';
export * from './sync-config';
export * from './scopes';
