import { Injectable } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppConfig, InjectConfig, SyncSource } from '@app/config';
import { SourceRepository } from '@app/database';
import { PopulationImportService, UrlImportService, newAttempt } from '@app/importer';
import { SourceRun, failedRun, runSources } from './sync-jobs';
import { STOP_SYNC, SyncWorkerInput, SyncWorkerOutput } from './sync-worker.protocol';

/** The compiled worker, beside this file once built (absent when run from the TypeScript sources). */
const WORKER_FILE = join(__dirname, 'sync.worker.js');

/** How a worker ended: done, or dead (`inSource`: while a source it had started was under way). */
type WorkerEnd = { done: true } | { done: false; error: string; inSource: boolean };

/**
 * Runs a sync's imports in a worker thread with its own database connection, so that the API's
 * event loop is free for requests (SQLite's driver is synchronous), and its own heap limit
 * (`SYNC_WORKER_MEMORY`), so that a source too large for memory fails that source, not the API.
 * In-process only where a worker cannot be: run from the TypeScript sources (the in-process
 * tests), or an in-memory SQLite database that no other connection can see.
 */
@Injectable()
export class SyncRunner {
  constructor(
    private readonly importer: UrlImportService,
    private readonly population: PopulationImportService,
    private readonly sources: SourceRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  get inWorker(): boolean {
    return existsSync(WORKER_FILE) && this.config.db.path !== ':memory:';
  }

  /** Runs `sources` in turn; `ended` hears each source's run as it ends, before the next starts. */
  async run(
    sources: SyncSource[],
    signal: AbortSignal,
    ended: (run: SourceRun) => void = () => undefined,
  ): Promise<SourceRun[]> {
    if (!this.inWorker) {
      const importers = { records: this.importer, population: this.population };
      return runSources(importers, sources, signal, { started: () => undefined, ended });
    }
    const runs: SourceRun[] = [];
    const tell = (run: SourceRun) => {
      runs.push(run);
      ended(run);
    };
    while (runs.length < sources.length && !signal.aborted) {
      const end = await this.worker(sources.slice(runs.length), signal, tell);
      if (end.done) break;
      if (!end.inSource) {
        if (runs.length === 0) throw new Error(end.error);
        break;
      }
      // The worker died in this source: it fails, and the next ones run in a new worker. Its
      // transaction went with the worker's connection: nothing of it was written.
      const source = sources[runs.length];
      await this.sources.save({
        ...newAttempt(
          source.dataset,
          source.url,
          await this.sources.find(source.dataset, source.url),
        ),
        lastError: end.error,
      });
      tell(failedRun(source, end.error));
    }
    return runs;
  }

  /** Runs `sources` in one worker, telling each source's run as it ends. */
  private worker(
    sources: SyncSource[],
    signal: AbortSignal,
    ended: (run: SourceRun) => void,
  ): Promise<WorkerEnd> {
    return new Promise((resolve) => {
      const input: SyncWorkerInput = { config: this.config, sources };
      const worker = new Worker(WORKER_FILE, {
        workerData: input,
        resourceLimits: { maxOldGenerationSizeMb: this.config.syncWorkerMemoryMb },
      });
      const stop = () => worker.postMessage(STOP_SYNC);
      signal.addEventListener('abort', stop, { once: true });
      let started = 0;
      let finished = 0;
      let end: WorkerEnd | undefined;
      worker.on('message', (message: SyncWorkerOutput) => {
        if ('started' in message) started++;
        else if ('run' in message) {
          finished++;
          ended(message.run);
        } else if ('done' in message) end = { done: true };
        else end = { done: false, error: message.error, inSource: false };
      });
      let failure: Error | undefined;
      worker.on('error', (error: Error) => {
        failure ??= error;
      });
      worker.on('exit', (code) => {
        signal.removeEventListener('abort', stop);
        const inSource = started > finished;
        resolve(end ?? { done: false, error: this.death(failure, code, inSource), inSource });
      });
    });
  }

  /** Why the worker died, as the source's `last_error` and the log tell it. */
  private death(error: NodeJS.ErrnoException | undefined, code: number, inSource: boolean): string {
    const cause =
      error?.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `the sync worker ran out of memory (the limit SYNC_WORKER_MEMORY: ${this.config.syncWorkerMemoryMb} MB)`
        : `the sync worker stopped (${error ? error.message : `exit code ${code}`})`;
    return inSource ? `${cause}; nothing was imported` : cause;
  }
}
