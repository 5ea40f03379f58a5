import { Injectable } from '@nestjs/common';
import { STALE_AFTER_INTERVALS } from '@app/config';
import { SourceRepository } from '@app/database';
import { SourcesReport, sourcesReport } from '@app/importer';
import { SyncService } from './sync.service';

/** `fresh`, `stale` (last success older than three intervals), `pending` (no success yet). */
export interface DataFreshness {
  data: 'fresh' | 'stale' | 'pending';
  /** Seconds since the oldest of the scheduled sources' last successes; null before any. */
  data_age_seconds: number | null;
}

/** What `/api/sources` and `/api/health` tell about the sources and the sync. */
@Injectable()
export class SyncStatusService {
  private readonly startedAt = Date.now();

  constructor(
    private readonly sync: SyncService,
    private readonly sources: SourceRepository,
  ) {}

  async report(): Promise<SourcesReport> {
    const states = await this.sources.list();
    return sourcesReport(states, this.sync.config, this.sync.nextRunAt, this.sync.isRunning);
  }
  /** Only when sync is on: how old the scheduled data is. */
  async freshness(): Promise<DataFreshness | undefined> {
    const config = this.sync.config;
    if (!config) return undefined;
    const states = await this.sources.list();
    const successes = config.sources.map(
      (c) => states.find((s) => s.dataset === c.dataset && s.url === c.url)?.lastSuccessAt ?? null,
    );
    const staleAfterMs = STALE_AFTER_INTERVALS * config.intervalMs;
    const now = Date.now();
    if (successes.some((at) => at === null)) {
      // Never synced: stale once the instance has had three intervals to do it.
      const data = now - this.startedAt > staleAfterMs ? 'stale' : 'pending';
      return { data, data_age_seconds: null };
    }
    const age = now - Math.min(...(successes as number[]));
    return {
      data: age > staleAfterMs ? 'stale' : 'fresh',
      data_age_seconds: Math.floor(age / 1000),
    };
  }
}
