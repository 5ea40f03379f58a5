import Redis from 'ioredis';
import { REDIS_CLIENT_OPTIONS } from '../redis/redis-client-options';

/**
 * Redis pub/sub channels on which changes are announced to every API instance (`REDIS_URL`).
 * Channels are not scoped by Redis database number: deployments that share one Redis server
 * hear each other's announcements, which only costs them an early reload.
 */
export const CHANGE_CHANNELS = {
  /** Tokens issued, rotated or revoked (admin command line). */
  tokens: 'covid-api:api-tokens:changed',
  /** Records written (an API instance or the admin command line); the message is the series key. */
  records: 'covid-api:records:changed',
} as const;

export type ChangeChannel = (typeof CHANGE_CHANNELS)[keyof typeof CHANGE_CHANNELS];

/**
 * Announces a change once, on a connection of its own (the admin command line; an API instance
 * announces through `RedisConnections.publish`). Best effort:
 * false when Redis cannot be reached (the instances then notice within their refresh interval or
 * cache lifetime anyway).
 */
export async function announceChange(
  redisUrl: string,
  channel: ChangeChannel,
  message: string,
): Promise<boolean> {
  const redis = new Redis(redisUrl, {
    ...REDIS_CLIENT_OPTIONS,
    lazyConnect: true,
    connectionName: 'covid-api:cli',
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.publish(channel, message);
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Announces changes from a process that holds no Redis connection of its own (the admin command
 * line, an import, the sync worker): each on a connection of its own, nothing without a Redis URL.
 */
export class ChangeAnnouncer {
  constructor(private readonly redisUrl: string | undefined) {}

  async announce(channel: ChangeChannel, message: string): Promise<void> {
    if (this.redisUrl) await announceChange(this.redisUrl, channel, message);
  }
}
