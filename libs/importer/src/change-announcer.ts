import { CHANGE_CHANNELS, announceChange } from '@app/messaging';

/** While an import writes, at most one announcement this often. */
export const ANNOUNCE_EVERY_MS = 1000;

/**
 * Tells the API instances that share Redis (REDIS_URL) that an import wrote records of a series,
 * so that they drop their cached reads of it at once instead of serving stale figures until their
 * cache lifetime ends: after committed batches (at most about once a second, so that an import
 * that fails or is interrupted later has already announced what it wrote), and once more at the
 * end. Does nothing without REDIS_URL.
 */
export class ChangeAnnouncer {
  private lastAt = -Infinity;
  /** The announcement on its way (each one opens its own short connection). */
  private sending?: Promise<boolean>;

  constructor(
    private readonly redisUrl: string | undefined,
    private readonly seriesKey: string,
  ) {}

  /** A batch was committed: announced unless an announcement went out less than a second ago. */
  committed(): void {
    if (this.sending || Date.now() - this.lastAt < ANNOUNCE_EVERY_MS) return;
    void this.announce();
  }

  /** The import is over: announces once more when it wrote anything. */
  async finished(wroteAnything: boolean): Promise<void> {
    await this.sending;
    if (wroteAnything) await this.announce();
  }

  private async announce(): Promise<void> {
    if (!this.redisUrl) return;
    this.lastAt = Date.now();
    this.sending = announceChange(this.redisUrl, CHANGE_CHANNELS.records, this.seriesKey);
    try {
      await this.sending;
    } finally {
      this.sending = undefined;
    }
  }
}
