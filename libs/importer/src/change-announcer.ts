import { CHANGE_CHANNELS, announceChange } from '@app/messaging';

/**
 * Tells the API instances that share Redis (REDIS_URL) that an import wrote records of a series,
 * so that they drop their cached reads of it at once instead of serving stale figures until their
 * cache lifetime ends. An import commits once, so it announces once. Does nothing without
 * REDIS_URL.
 */
export class ChangeAnnouncer {
  constructor(
    private readonly redisUrl: string | undefined,
    private readonly seriesKey: string,
  ) {}

  /** The import is over: announces when it wrote anything. */
  async finished(wroteAnything: boolean): Promise<void> {
    if (wroteAnything && this.redisUrl) {
      await announceChange(this.redisUrl, CHANGE_CHANNELS.records, this.seriesKey);
    }
  }
}
