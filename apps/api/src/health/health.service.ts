import { Injectable } from '@nestjs/common';
import { MESSAGES } from '@app/common';
import { AppConfig, InjectConfig } from '@app/config';
import { DatabaseProbe } from '@app/database';
import { RedisConnections } from '@app/messaging';
import { DataFreshness, SyncStatusService } from '../sync/sync-status.service';
import { ShutdownDrain } from './shutdown-drain.service';

export type Probe = 'up' | 'down';

/**
 * `ok`: everything answers. `degraded`: the database answers but Redis does not, or this instance
 * is not subscribed to the change announcements (the instance serves; its rate limit is counted
 * locally and its cached reads live out `CACHE_TTL_MS` until Redis is back). `unavailable`: the
 * database does not answer (503; the instance recovers by itself when it is back). `stopping`:
 * the instance received SIGTERM and finishes its requests in flight (503: send new requests
 * elsewhere). With scheduled sync, `data` tells how old the synced data is (`DataFreshness`): stale
 * data does not change the status (the instance still serves), monitoring alerts on it.
 */
export interface HealthReport extends Partial<DataFreshness> {
  status: 'ok' | 'degraded' | 'unavailable' | 'stopping';
  database: Probe;
  /** Only when `REDIS_URL` is set. */
  redis?: Probe;
  /** Only on 503, like every 503 body. */
  error?: string;
}

/** The probe never waits longer than this, nor than the database timeout (`DB_TIMEOUT_MS`). */
const PROBE_TIMEOUT_MS = 2000;

/** Resolves to false when the probe fails or takes longer than `timeoutMs`. */
async function answers(probe: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const result = probe().then(
      () => true,
      () => false,
    );
    return await Promise.race([result, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

@Injectable()
export class HealthService {
  private readonly probeTimeoutMs: number;

  constructor(
    private readonly database: DatabaseProbe,
    private readonly redis: RedisConnections,
    private readonly shutdown: ShutdownDrain,
    private readonly sync: SyncStatusService,
    @InjectConfig() config: AppConfig,
  ) {
    this.probeTimeoutMs = Math.min(PROBE_TIMEOUT_MS, config.db.timeoutMs);
  }

  async check(): Promise<HealthReport> {
    const [database, redis] = await Promise.all([
      answers(() => this.database.ping(), this.probeTimeoutMs),
      this.redis.enabled ? answers(() => this.redis.ping(), this.probeTimeoutMs) : undefined,
    ]);
    const report: HealthReport = {
      status: this.shutdown.stopping
        ? 'stopping'
        : !database
          ? 'unavailable'
          : redis === false
            ? 'degraded'
            : 'ok',
      database: database ? 'up' : 'down',
    };
    if (redis !== undefined) report.redis = redis ? 'up' : 'down';
    if (database) Object.assign(report, await this.freshness());
    if (report.status === 'stopping') report.error = MESSAGES.shuttingDown;
    else if (!database) report.error = MESSAGES.databaseUnavailable;
    return report;
  }

  /** Never fails the probe: the database just answered, a failure here is a passing one. */
  private async freshness(): Promise<DataFreshness | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.probeTimeoutMs);
    });
    try {
      return await Promise.race([this.sync.freshness().catch(() => undefined), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
