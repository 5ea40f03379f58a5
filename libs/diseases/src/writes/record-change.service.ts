import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CHANGE_CHANNELS, ChangeListener, RedisConnections } from '@app/messaging';
import { WriteNotice } from './write-notice';

/** How long start-up waits for the subscription before serving without it. */
const SUBSCRIBE_START_TIMEOUT_MS = 3000;

/**
 * An API instance's `WriteNotice`: after each write (`RecordWriter`) it drops this instance's
 * cached reads of the disease at once. With `REDIS_URL`, tells the other API instances when this one wrote records of a disease, and
 * hears theirs (and the admin command line's imports): each instance then drops its cached
 * reads of that disease at once instead of serving them until `CACHE_TTL_MS` runs out. Best
 * effort: while Redis is away, the cache lifetime still bounds how stale a read can be. Without
 * `REDIS_URL`, nothing is sent or heard.
 */
@Injectable()
export class RecordChangeService implements WriteNotice, OnModuleInit, OnModuleDestroy {
  private readonly listeners = new Map<string, (() => void)[]>();
  private listener?: ChangeListener;

  constructor(private readonly redis: RedisConnections) {}

  /**
   * Start-up waits for the subscription a little (as for the rate-limit counters), so that an
   * instance is subscribed, and healthy, once it serves; it goes on without when Redis is down.
   */
  async onModuleInit(): Promise<void> {
    this.listener = this.redis.listen(CHANGE_CHANNELS.records, (disease) => this.changed(disease));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.listener.subscribed,
      new Promise((resolve) => (timer = setTimeout(resolve, SUBSCRIBE_START_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
  }

  /** Settles once this instance hears announcements (true), or cannot (false; no `REDIS_URL`). */
  listening(): Promise<boolean> {
    return this.listener?.subscribed ?? Promise.resolve(false);
  }

  onModuleDestroy(): void {
    this.listener?.stop();
  }

  /** Calls `listener` whenever a change of `disease` is announced (by any instance or the CLI). */
  onChange(disease: string, listener: () => void): void {
    this.listeners.set(disease, [...(this.listeners.get(disease) ?? []), listener]);
  }

  /** Announces that records of `disease` changed (its own listeners hear it too: harmless). */
  announce(disease: string): void {
    this.redis.publish(CHANGE_CHANNELS.records, disease);
  }

  /**
   * Records of `disease` were written (by this instance's `RecordWriter`, or by the scheduled
   * sync's worker): drops this instance's cached reads at once and tells the other instances.
   */
  written(disease: string): void {
    this.changed(disease);
    this.announce(disease);
  }

  /** `null`: (re)connected, announcements may have been missed, so every disease changed. */
  private changed(disease: string | null): void {
    for (const [key, listeners] of this.listeners) {
      if (disease === null || disease === key) listeners.forEach((listener) => listener());
    }
  }
}
