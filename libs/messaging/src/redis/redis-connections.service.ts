import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import Redis, { RedisOptions } from 'ioredis';
import { AppConfig, InjectConfig } from '@app/config';
import { ChangeChannel } from '../notifications/change-notifications';
import { REDIS_CLIENT_OPTIONS } from './redis-client-options';

/** A subscription made by `RedisConnections.listen`. */
export interface ChangeListener {
  /** Settles once the subscription is confirmed (true) or refused (false). */
  subscribed: Promise<boolean>;
  stop(): void;
}

type Handler = (message: string | null) => void;

/**
 * The Redis connections of one API instance (`REDIS_URL`), two whatever the number of users:
 * - `commands()`: rate-limit counters, health probe and change announcements. No offline queue and
 *   500 ms per command, so that no request ever waits for an absent Redis;
 * - one subscriber for every change channel (`listen`).
 * Both are opened on first use, named `covid-api:<host>-<pid>-<random>:commands|events` (see
 * `CLIENT LIST`), and closed when the application stops.
 */
@Injectable()
export class RedisConnections implements OnApplicationShutdown {
  /** This instance's name in Redis' `CLIENT LIST`. */
  readonly instance = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private commandClient?: Redis;
  private subscriber?: Redis;
  private readonly handlers = new Map<ChangeChannel, Set<Handler>>();

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.redisUrl !== undefined;
  }

  /** The connection for commands; only with `REDIS_URL` (check `enabled`). */
  commands(): Redis {
    this.commandClient ??= this.connect('commands', {
      enableOfflineQueue: false,
      commandTimeout: 500,
    });
    return this.commandClient;
  }

  /** Announces a change to every instance. Never waits and never fails: dropped while Redis is away. */
  publish(channel: ChangeChannel, message: string): void {
    if (!this.enabled) return;
    this.commands()
      .publish(channel, message)
      .catch(() => undefined);
  }

  /**
   * Calls `handler` with each announcement on `channel`, and with `null` each time the
   * subscription is made again after a reconnection, since announcements made while disconnected
   * are lost. Without `REDIS_URL`, never calls it (`subscribed` settles to false).
   */
  listen(channel: ChangeChannel, handler: Handler): ChangeListener {
    if (!this.enabled) return { subscribed: Promise.resolve(false), stop: () => undefined };
    const subscriber = (this.subscriber ??= this.openSubscriber());
    let handlers = this.handlers.get(channel);
    if (!handlers) this.handlers.set(channel, (handlers = new Set()));
    handlers.add(handler);
    return {
      subscribed: subscriber.subscribe(channel).then(
        () => true,
        () => false,
      ),
      stop: () => handlers.delete(handler),
    };
  }

  /** Rejects unless Redis answers and this instance hears announcements (health check). */
  async ping(): Promise<void> {
    await this.commands().ping();
    if (this.subscriber && this.subscriber.status !== 'ready') {
      throw new Error('not subscribed');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.handlers.clear();
    // Announcements already sent are flushed; the subscriber has nothing to flush.
    this.subscriber?.disconnect();
    await this.commandClient?.quit().catch(() => this.commandClient?.disconnect());
  }

  private openSubscriber(): Redis {
    // ioredis only subscribes again to the channels the server had confirmed: a subscription
    // first tried while Redis was away would never be made. So every connection subscribes to
    // every channel itself, and tells the handlers once that is done.
    const subscriber = this.connect('events', { autoResubscribe: false });
    subscriber.on('message', (channel: ChangeChannel, message: string) =>
      this.handlers.get(channel)?.forEach((handler) => handler(message)),
    );
    subscriber.on('ready', () => {
      const channels = [...this.handlers.keys()];
      if (channels.length === 0) return;
      subscriber.subscribe(...channels).then(
        () => this.handlers.forEach((handlers) => handlers.forEach((handler) => handler(null))),
        () => undefined, // lost again: the next 'ready' tries again
      );
    });
    return subscriber;
  }

  private connect(role: string, options: RedisOptions): Redis {
    const client = new Redis(this.config.redisUrl!, {
      ...REDIS_CLIENT_OPTIONS,
      ...options,
      connectionName: `covid-api:${this.instance}:${role}`,
    });
    client.on('error', () => undefined);
    return client;
  }
}
