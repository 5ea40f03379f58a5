/**
 * Redis pub/sub channels on which changes are announced to every API instance (`REDIS_URL`).
 * Channels are not scoped by Redis database number: deployments that share one Redis server
 * hear each other's announcements, which only costs them an early reload.
 */
export const CHANGE_CHANNELS = {
  /** Tokens issued, rotated or revoked (admin command line). */
  tokens: 'covid-api:api-tokens:changed',
  /** Records written (an API instance or the admin command line); the message is the disease's key. */
  records: 'covid-api:records:changed',
} as const;

export type ChangeChannel = (typeof CHANGE_CHANNELS)[keyof typeof CHANGE_CHANNELS];
