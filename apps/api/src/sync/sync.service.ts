import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { describeError, sourceName, withSourceNames } from '@app/common';
import {
  AppConfig,
  FIRST_RUN_DELAY_MS,
  InjectConfig,
  SyncConfig,
  nextSlot,
  slotStart,
} from '@app/config';
import { SourceRepository } from '@app/database';
import { COVID_DISEASE, MPOX_DISEASE, RecordChangeService } from '@app/diseases';
import { MetricsService } from '../metrics/metrics.service';
import { SyncLockService } from './sync-lock.service';
import { SourceRun } from './sync-jobs';
import { SyncRunner } from './sync-runner.service';

const TIMER = 'sync';

/** What one call of `runOnce` did. */
export type SyncRunResult = 'ran' | 'busy' | 'done-elsewhere' | 'off';

/**
 * The scheduled sync (`SYNC_SOURCES`, `SYNC_INTERVAL`): shortly after start-up, then at each slot
 * of the interval (`sync-schedule.ts`), imports every source from its URL (`SyncRunner`), one
 * instance at a time (`SyncLockService`). A slot whose sources were all attempted already (by
 * another instance) is skipped. As each source's import ends, the write notice
 * (`RecordChangeService.written`, what each write path calls) drops this instance's cached reads
 * and tells the others, so that every instance serves the new figures.
 */
@Injectable()
export class SyncService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sync');
  private readonly sync?: SyncConfig;
  private running?: Promise<SyncRunResult>;
  private readonly stop = new AbortController();
  private next?: number;
  /** The diseases whose records the worker's imports write. */
  private readonly diseases = new Set<string>([COVID_DISEASE.key, MPOX_DISEASE.key]);

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly lock: SyncLockService,
    private readonly runner: SyncRunner,
    private readonly sources: SourceRepository,
    private readonly changes: RecordChangeService,
    private readonly metrics: MetricsService,
  ) {
    this.sync = config.sync;
  }

  get config(): SyncConfig | undefined {
    return this.sync;
  }

  /** When this instance next tries a run (epoch ms), if sync is on. */
  get nextRunAt(): number | undefined {
    return this.next;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  onApplicationBootstrap(): void {
    if (!this.sync) return;
    const where = this.runner.inWorker ? 'in a worker thread' : 'in-process';
    this.logger.log(
      `sync of ${this.sync.sources.length} source(s) every ${this.sync.interval}, ${where}; first run in ${FIRST_RUN_DELAY_MS / 1000} s`,
    );
    this.schedule(Date.now() + FIRST_RUN_DELAY_MS);
  }

  /** Stops a run under way at its next batch and waits for it (the shutdown's deadline bounds it). */
  async onApplicationShutdown(): Promise<void> {
    this.next = undefined;
    if (this.scheduler.doesExist('timeout', TIMER)) this.scheduler.deleteTimeout(TIMER);
    this.stop.abort('SIGTERM');
    await this.running;
  }

  /**
   * One run now, unless one is under way here, another instance holds the lock, or the current
   * slot's run already happened. Never throws: failures end in the `sources` rows and the log.
   */
  runOnce(): Promise<SyncRunResult> {
    if (!this.sync) return Promise.resolve('off');
    if (this.running) return Promise.resolve('busy');
    const run = this.locked(this.sync).finally(() => (this.running = undefined));
    this.running = run;
    return run;
  }

  private schedule(at: number): void {
    if (this.stop.signal.aborted) return;
    if (this.scheduler.doesExist('timeout', TIMER)) this.scheduler.deleteTimeout(TIMER);
    this.next = at;
    const timer = setTimeout(() => void this.tick(), Math.max(0, at - Date.now()));
    this.scheduler.addTimeout(TIMER, timer);
  }

  private async tick(): Promise<void> {
    this.scheduler.deleteTimeout(TIMER);
    await this.runOnce();
    this.schedule(nextSlot(Date.now(), this.sync!.intervalMs));
  }

  private async locked(sync: SyncConfig): Promise<SyncRunResult> {
    let release;
    try {
      release = await this.lock.tryAcquire();
    } catch (error) {
      this.logger.warn(`sync skipped: ${describeError(error)}`);
      return 'busy';
    }
    if (!release) {
      this.logger.log('sync skipped: another instance is syncing');
      return 'busy';
    }
    try {
      if (!(await this.due(sync))) {
        this.logger.log('sync skipped: this slot was synced already (by another instance)');
        return 'done-elsewhere';
      }
      await this.runSources(sync);
      return 'ran';
    } catch (error) {
      const urls = sync.sources.map((source) => source.url);
      this.logger.error(`sync failed: ${describeError(error, urls)}`);
      return 'ran';
    } finally {
      await release();
    }
  }

  /** Whether some source was not attempted yet in the current slot. */
  private async due(sync: SyncConfig): Promise<boolean> {
    const since = slotStart(Date.now(), sync.intervalMs);
    const states = await this.sources.list();
    return sync.sources.some(
      ({ dataset, url }) =>
        !states.some((s) => s.dataset === dataset && s.url === url && s.lastAttemptAt >= since),
    );
  }

  private async runSources(sync: SyncConfig): Promise<void> {
    const started = Date.now();
    let runs;
    try {
      // Each source's figures are served as soon as its import ends, not after the whole run.
      runs = await this.runner.run(sync.sources, this.stop.signal, (run) => this.announce(run));
    } catch (error) {
      this.metrics.recordFailedSync(sync.sources);
      throw error;
    }
    // Counted from what the worker reported: its imports ran on a connection of its own.
    this.metrics.recordSync(runs, Date.now());
    for (const run of runs) {
      // The worker's errors name their source already; whatever else it quotes is named here.
      const error = run.error ? `: ${withSourceNames(run.error, [run.url])}` : '';
      const line = `sync ${run.dataset} ${sourceName(run.url)}: ${run.outcome}, ${run.written} record(s) written, ${run.corrected.toLocaleString('en-US')} figures corrected${error}`;
      if (run.outcome === 'failed') this.logger.warn(line);
      else this.logger.log(line);
    }
    this.logger.log(`sync done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /**
   * Drops the cached reads that one source's run may have changed (the worker's writes are not
   * this instance's own). A population table changes both diseases' per-million figures.
   */
  private announce(run: SourceRun): void {
    if (run.outcome === 'unchanged') return;
    const diseases = run.dataset === 'population' ? ['covid', 'mpox'] : [run.dataset];
    for (const disease of diseases) if (this.diseases.has(disease)) this.changes.written(disease);
  }
}
