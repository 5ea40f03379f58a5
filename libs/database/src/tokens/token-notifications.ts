import Redis from 'ioredis';

/** Redis pub/sub channel on which token changes are announced to every API instance. */
export const TOKEN_CHANGES_CHANNEL = 'covid-api:api-tokens:changed';

const REDIS_OPTIONS = {
  connectTimeout: 2000,
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
};

/**
 * Tells the API instances that tokens changed, so that they reload them at once instead of at
 * their next periodic check. Best effort: false when Redis cannot be reached (the instances then
 * notice within their refresh interval anyway).
 */
export async function announceTokenChange(redisUrl: string): Promise<boolean> {
  const redis = new Redis(redisUrl, { ...REDIS_OPTIONS, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.publish(TOKEN_CHANGES_CHANNEL, String(Date.now()));
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Calls `onChange` for every announcement; returns a function that stops listening. */
export function listenForTokenChanges(redisUrl: string, onChange: () => void): () => void {
  const redis = new Redis(redisUrl, REDIS_OPTIONS);
  redis.on('error', () => undefined);
  redis.on('message', onChange);
  // A (re)connection may have missed announcements: check at once.
  redis.on('ready', onChange);
  redis.subscribe(TOKEN_CHANGES_CHANNEL).catch(() => undefined);
  return () => redis.disconnect();
}
