import { AppConfig, SyncSource } from '@app/config';
import { SourceRun } from './sync-jobs';

/** What the API thread gives the sync worker (`sync.worker.ts`). */
export interface SyncWorkerInput {
  config: AppConfig;
  sources: SyncSource[];
}

/** The one message the worker ends with. */
export type SyncWorkerOutput = { runs: SourceRun[] } | { error: string };

/** The API thread posts this to stop the sync (the import under way stops at its next batch). */
export const STOP_SYNC = 'stop';
