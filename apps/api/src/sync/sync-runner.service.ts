import { Injectable } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppConfig, InjectConfig, SyncSource } from '@app/config';
import { PopulationImportService, UrlImportService } from '@app/importer';
import { SourceRun, runSources } from './sync-jobs';
import { STOP_SYNC, SyncWorkerInput, SyncWorkerOutput } from './sync-worker.protocol';

/** The compiled worker, beside this file once built (absent when run from the TypeScript sources). */
const WORKER_FILE = join(__dirname, 'sync.worker.js');

/**
 * Runs a sync's imports in a worker thread with its own database connection, so that the API's
 * event loop is free for requests (SQLite's driver is synchronous). In-process only where a
 * worker cannot be: run from the TypeScript sources (the in-process tests), or an in-memory
 * SQLite database that no other connection can see.
 */
@Injectable()
export class SyncRunner {
  constructor(
    private readonly importer: UrlImportService,
    private readonly population: PopulationImportService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  get inWorker(): boolean {
    return existsSync(WORKER_FILE) && this.config.db.path !== ':memory:';
  }

  run(sources: SyncSource[], signal: AbortSignal): Promise<SourceRun[]> {
    if (!this.inWorker)
      return runSources({ records: this.importer, population: this.population }, sources, signal);
    return new Promise((resolve, reject) => {
      const input: SyncWorkerInput = { config: this.config, sources };
      const worker = new Worker(WORKER_FILE, { workerData: input });
      const stop = () => worker.postMessage(STOP_SYNC);
      signal.addEventListener('abort', stop, { once: true });
      let output: SyncWorkerOutput | undefined;
      worker.on('message', (message: SyncWorkerOutput) => (output = message));
      worker.on('error', (error) => (output ??= { error: error.message }));
      worker.on('exit', (code) => {
        signal.removeEventListener('abort', stop);
        if (output && 'runs' in output) resolve(output.runs);
        else reject(new Error(output?.error ?? `the sync worker stopped (exit code ${code})`));
      });
    });
  }
}
