import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CHANGE_CHANNELS, ChangeListener, RedisConnections } from '@app/messaging';
import { WriteNotice } from './write-notice';

/** How long start-up waits for the subscription before serving without it. */
const SUBSCRIBE_START_TIMEOUT_MS = 3000;

/**
 * An API instance's `WriteNotice`: after each write (`RecordWriter`) it drops this instance's
 * cached reads of the series at once. With `REDIS_URL`, tells the other API instances when this one wrote records of a series, and
 * hears theirs (and the admin command line's imports): each instance then drops its cached
 * reads of that series at once instead of serving them until `CACHE_TTL_MS` runs out. Best
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
    this.listener = this.redis.listen(CHANGE_CHANNELS.records, (series) => this.changed(series));
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

  /** Calls `listener` whenever a change of `series` is announced (by any instance or the CLI). */
  onChange(series: string, listener: () => void): void {
    this.listeners.set(series, [...(this.listeners.get(series) ?? []), listener]);
  }

  /** Announces that records of `series` changed (its own listeners hear it too: harmless). */
  announce(series: string): void {
    this.redis.publish(CHANGE_CHANNELS.records, series);
  }

  /**
   * Records of `series` were written (by this instance's `RecordWriter`, or by the scheduled
   * sync's worker): drops this instance's cached reads at once and tells the other instances.
   */
  written(series: string): void {
    this.changed(series);
    this.announce(series);
  }

  /** `null`: (re)connected, announcements may have been missed, so every series changed. */
  private changed(series: string | null): void {
    for (const [key, listeners] of this.listeners) {
      if (series === null || series === key) listeners.forEach((listener) => listener());
    }
  }
}
