import { AppConfig, SyncSource } from '@app/config';
import { SourceRun } from './sync-jobs';

/** What the API thread gives the sync worker (`sync.worker.ts`). */
export interface SyncWorkerInput {
  config: AppConfig;
  sources: SyncSource[];
}

/**
 * What the worker tells as it goes: each source as it starts (its index in `sources`) and as it
 * ends, then that it is done, or why it could not run at all. A worker that dies in a source
 * (out of memory) leaves a `started` without its `run`: that source failed.
 */
export type SyncWorkerOutput =
  { started: number } | { run: SourceRun } | { done: true } | { error: string };

/** The API thread posts this to stop the sync (the import under way stops at its next batch). */
export const STOP_SYNC = 'stop';
