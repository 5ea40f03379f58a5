import Redis from 'ioredis';
import { ChangeChannel } from '../notifications/change-notifications';
import { REDIS_CLIENT_OPTIONS } from './redis-client-options';

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
