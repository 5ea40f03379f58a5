import { RedisOptions } from 'ioredis';

/**
 * How every Redis connection of the service behaves (rate-limit counters, change notifications):
 * a connection attempt gives up after 2 s, a command is tried at most twice, and a lost connection
 * is retried every 0.2 s, then every 2 s at most.
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = {
  connectTimeout: 2000,
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
};
