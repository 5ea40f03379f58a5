import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { describeError } from '@app/common';
import { AppConfig, InjectConfig } from '@app/config';
import { NamedLocks } from '@app/database';
import { RedisConnections } from '@app/messaging';

/** Gives the lock back; never throws. */
export type ReleaseLock = () => Promise<void>;

/** A Redis lock lives this long unless renewed: an instance that dies frees it within that time. */
export const REDIS_LOCK_TTL_MS = 60_000;
const RENEW_EVERY_MS = REDIS_LOCK_TTL_MS / 3;

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * One sync at a time across the instances that share a store. On MySQL: the database's own
 * named lock (`GET_LOCK`), held by one connection for the whole sync, so that an instance that
 * dies mid-sync frees it with its connection. On SQLite with `REDIS_URL`: a Redis key with a
 * lease renewed while the sync runs. On SQLite alone: only this process (one instance per file).
 */
@Injectable()
export class SyncLockService {
  private readonly logger = new Logger('Sync');
  private readonly name: string;

  constructor(
    private readonly locks: NamedLocks,
    private readonly redis: RedisConnections,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    const store = config.db.type === 'mysql' ? config.db.name : config.db.path;
    this.name = `covid-api-sync:${store}`.slice(0, 64);
  }

  /** The lock, or undefined when another instance holds it. */
  async tryAcquire(): Promise<ReleaseLock | undefined> {
    if (this.config.db.type === 'mysql') return this.mysqlLock();
    if (this.redis.enabled) return this.redisLock();
    return () => Promise.resolve();
  }

  private async mysqlLock(): Promise<ReleaseLock | undefined> {
    try {
      return await this.locks.tryAcquire(this.name);
    } catch (error) {
      this.logger.warn(`the sync lock could not be taken: ${describeError(error)}`);
      return undefined;
    }
  }

  private async redisLock(): Promise<ReleaseLock | undefined> {
    const redis = this.redis.commands();
    const owner = randomUUID();
    try {
      const set = await redis.set(this.name, owner, 'PX', REDIS_LOCK_TTL_MS, 'NX');
      if (set !== 'OK') return undefined;
    } catch (error) {
      // An SQLite file is shared by instances of one host at most: going on is the lesser harm
      // (imports are idempotent), and a Redis outage does not stop the data from following.
      this.logger.warn(`Redis is unreachable, the sync runs unlocked: ${describeError(error)}`);
      return () => Promise.resolve();
    }
    const renew = setInterval(() => {
      redis.eval(RENEW, 1, this.name, owner, REDIS_LOCK_TTL_MS).catch(() => undefined);
    }, RENEW_EVERY_MS);
    renew.unref();
    return async () => {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, this.name, owner).catch(() => undefined);
    };
  }
}
