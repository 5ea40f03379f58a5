import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { NestFactory } from '@nestjs/core';
import { describeError } from '@app/common';
import { PopulationImportService, UrlImportService } from '@app/importer';
import { runSources } from './sync-jobs';
import { SyncWorkerModule } from './sync-worker.module';
import { STOP_SYNC, SyncWorkerInput, SyncWorkerOutput } from './sync-worker.protocol';

/**
 * The scheduled sync's thread: parsing the CSV and writing the batches (synchronous on SQLite)
 * happen here, on the worker's own database connection, so that the API's event loop keeps
 * answering requests meanwhile.
 */
async function main(): Promise<void> {
  const port = parentPort!;
  const { config, sources } = workerData as SyncWorkerInput;
  const controller = new AbortController();
  port.on('message', (message) => message === STOP_SYNC && controller.abort('SIGTERM'));
  const tell = (output: SyncWorkerOutput) => port.postMessage(output);
  let output: SyncWorkerOutput;
  try {
    const context = await NestFactory.createApplicationContext(SyncWorkerModule.forRoot(config), {
      logger: false,
      abortOnError: false,
    });
    try {
      await runSources(
        {
          records: context.get(UrlImportService),
          population: context.get(PopulationImportService),
        },
        sources,
        controller.signal,
        { started: (index) => tell({ started: index }), ended: (run) => tell({ run }) },
      );
      output = { done: true };
    } finally {
      await context.close();
    }
  } catch (error) {
    output = {
      error: describeError(
        error,
        sources.map((source) => source.url),
      ),
    };
  }
  tell(output);
  port.close();
}

void main();
