import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { DatabaseActivity } from '@app/database';
import { CacheCounts, ReadCacheCounters } from '@app/diseases';
import { registerDatabaseMetrics } from './database-metrics';
import { RequestCounts } from './request-counts';

/** What the metrics count of one source's scheduled sync run (the sync's `SourceRun`). */
export interface CountedSyncRun {
  dataset: string;
  outcome: 'updated' | 'unchanged' | 'failed';
  /** Data rows read from the file. */
  read: number;
  /** Records inserted or changed. */
  written: number;
}

/**
 * The metrics of one application, in a registry of its own (never prom-client's global one), so
 * that several applications in one process (the tests) each count their own. Written as the
 * Prometheus text format by `GET /api/metrics`.
 */
@Injectable()
export class MetricsService implements ReadCacheCounters, OnModuleDestroy {
  private readonly registry = new Registry();
  /** Per route template and method, updated by the `onResponse` hook (`countRequests`). */
  readonly requests: RequestCounts;
  private readonly readCaches = new Map<string, CacheCounts>();
  private readonly sync;
  private readonly detachDatabase: () => void;

  constructor(database: DatabaseActivity) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new RequestCounts(this.registry);
    this.registerReadCaches();
    this.detachDatabase = registerDatabaseMetrics(this.registry, database);
    this.sync = this.registerSync();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition format (version 0.0.4). */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** The hit and miss counts of the read cache named `cache` (`ReadCache`, one per disease). */
  countsOf(cache: string): CacheCounts {
    let counts = this.readCaches.get(cache);
    if (counts === undefined) {
      counts = { hits: 0, misses: 0 };
      this.readCaches.set(cache, counts);
    }
    return counts;
  }

  /** Counts a scheduled sync's runs, as the worker reported them, at `at` (epoch ms). */
  recordSync(runs: readonly CountedSyncRun[], at: number): void {
    for (const run of runs) {
      const source = { source: run.dataset };
      this.sync.runs.inc({ ...source, result: run.outcome });
      this.sync.read.inc(source, run.read);
      this.sync.written.inc(source, run.written);
      if (run.outcome !== 'failed') {
        this.sync.lastSuccess.set(source, at / 1000);
        this.sync.lastRows.set(source, run.written);
      }
    }
  }

  /** A sync that failed as a whole (its worker stopped): each of its sources counts as failed. */
  recordFailedSync(sources: readonly { dataset: string }[]): void {
    for (const { dataset } of sources) this.sync.runs.inc({ source: dataset, result: 'failed' });
  }

  onModuleDestroy(): void {
    this.detachDatabase();
  }

  private registerReadCaches(): void {
    const caches = this.readCaches;
    new Counter({
      name: 'read_cache_requests_total',
      help: 'Reads of the public aggregates and small lists kept in memory, by cache: hit or miss',
      labelNames: ['cache', 'result'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [cache, { hits, misses }] of caches) {
          this.inc({ cache, result: 'hit' }, hits);
          this.inc({ cache, result: 'miss' }, misses);
        }
      },
    });
  }

  private registerSync() {
    const registers = [this.registry];
    const source = ['source'] as const;
    return {
      runs: new Counter({
        name: 'sync_runs_total',
        help: 'Scheduled sync imports run by this instance, by source and result (updated, unchanged, failed)',
        labelNames: ['source', 'result'] as const,
        registers,
      }),
      lastSuccess: new Gauge({
        name: 'sync_last_success_timestamp_seconds',
        help: "End of this instance's last successful sync of the source (Unix time)",
        labelNames: source,
        registers,
      }),
      lastRows: new Gauge({
        name: 'sync_last_success_rows_written',
        help: "Records inserted or changed by this instance's last successful sync of the source",
        labelNames: source,
        registers,
      }),
      read: new Counter({
        name: 'sync_import_rows_read_total',
        help: 'Data rows read by the scheduled sync imports of this instance (not the CLI)',
        labelNames: source,
        registers,
      }),
      written: new Counter({
        name: 'sync_import_rows_written_total',
        help: 'Records inserted or changed by the scheduled sync imports of this instance (not the CLI)',
        labelNames: source,
        registers,
      }),
    };
  }
}
