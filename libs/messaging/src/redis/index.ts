export * from './announce-change';
export * from './redis-client-options';
export * from './redis-connections.service';
export * from './redis.module';
