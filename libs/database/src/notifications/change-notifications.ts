import Redis from 'ioredis';
import { REDIS_CLIENT_OPTIONS } from '../redis-client-options';

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
 * Announces a change once, on a connection of its own (the admin command line). Best effort:
 * false when Redis cannot be reached (the instances then notice within their refresh interval or
 * cache lifetime anyway).
 */
export async function announceChange(
  redisUrl: string,
  channel: ChangeChannel,
  message: string,
): Promise<boolean> {
  const redis = new Redis(redisUrl, { ...REDIS_CLIENT_OPTIONS, lazyConnect: true });
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
 * Announces changes on one long-lived connection (an API instance). Never waits for Redis and never
 * fails its caller: while Redis is away, announcements are dropped, not queued.
 */
export class ChangePublisher {
  private readonly redis: Redis;

  constructor(redisUrl: string) {
    this.redis = new Redis(redisUrl, { ...REDIS_CLIENT_OPTIONS, enableOfflineQueue: false });
    this.redis.on('error', () => undefined);
  }

  publish(channel: ChangeChannel, message: string): void {
    this.redis.publish(channel, message).catch(() => undefined);
  }

  close(): void {
    this.redis.disconnect();
  }
}

/** A subscription made by `listenForChanges`. */
export interface ChangeListener {
  /** Settles once the first subscription is confirmed (true) or refused (false). */
  subscribed: Promise<boolean>;
  stop(): void;
}

/**
 * Calls `onChange` with each announcement on `channel`, and with `null` after every (re)connection,
 * since announcements made while disconnected are lost.
 */
export function listenForChanges(
  redisUrl: string,
  channel: ChangeChannel,
  onChange: (message: string | null) => void,
): ChangeListener {
  const redis = new Redis(redisUrl, REDIS_CLIENT_OPTIONS);
  redis.on('error', () => undefined);
  redis.on('message', (_channel: string, message: string) => onChange(message));
  redis.on('ready', () => onChange(null));
  return {
    subscribed: redis.subscribe(channel).then(
      () => true,
      () => false,
    ),
    stop: () => redis.disconnect(),
  };
}
