import { Injectable } from '@nestjs/common';
import { SourceRepository, SourceState } from '@app/database';
import { DiseaseDefinition } from '@app/diseases';
import { ImportError } from './import-error';
import { describeError, importActor, sourceName, withSourceNames } from '@app/common';
import { ImportProgress } from './import-progress';
import { ImportService, ImportSummary } from './import.service';
import { DownloadOptions, downloadSource } from './source-download';

export type UrlImport =
  { kind: 'unchanged'; reason: string } | { kind: 'imported'; summary: ImportSummary };

/** Matches the arguments of `import` that are downloaded rather than read from disk. */
export const isUrl = (argument: string) => /^https?:\/\//i.test(argument);

/**
 * Imports a URL: downloads it conditionally (from its `sources` row), then imports the file as a
 * local one. Whatever happens, the row then tells how the attempt went.
 */
@Injectable()
export class UrlImportService {
  constructor(
    private readonly importer: ImportService,
    private readonly sources: SourceRepository,
  ) {}

  async run(
    disease: DiseaseDefinition,
    url: string,
    download: DownloadOptions,
    progress: ImportProgress,
    signal?: AbortSignal,
    via: 'import' | 'sync' = 'import',
  ): Promise<UrlImport> {
    const previous = await this.sources.find(disease.key, url);
    const attempt = newAttempt(disease.key, url, previous);
    // Messages name the source as readers see it (`withSourceNames`, before any cut): no
    // credential or query string in an error that `/api/sources` or the sync's log shows.
    const fail = async (message: string) => {
      await this.sources.save({ ...attempt, lastError: message });
      return new ImportError(message);
    };
    const unchanged = async (reason: string, state: Partial<SourceState> = {}) => {
      await this.sources.save({
        ...attempt,
        ...state,
        outcome: 'unchanged',
        lastSuccessAt: Date.now(),
      });
      return { kind: 'unchanged' as const, reason };
    };

    let downloaded;
    try {
      downloaded = await downloadSource(url, { ...download, previous });
    } catch (error) {
      throw await fail(describeError(error, [url]));
    }
    if (downloaded.kind === 'not-modified') return unchanged('not modified (HTTP 304)');
    try {
      const { validators, hash } = downloaded;
      if (previous && hash === previous.contentHash) {
        return await unchanged('same content as the last import', validators);
      }
      // The temporary file's name means nothing to the user: the URL's does.
      const known = [{ text: downloaded.path, name: sourceName(url) }, url];
      let summary: ImportSummary;
      try {
        // The revisions name the URL, not the temporary file.
        summary = await this.importer.run(
          disease,
          downloaded.path,
          progress,
          signal,
          importActor(via, url),
        );
      } catch (error) {
        throw await fail(describeError(error, known));
      }
      if (summary.failure) summary.failure = withSourceNames(summary.failure, known);
      await this.sources.save(appliedState(attempt, summary, validators, hash));
      return { kind: 'imported', summary };
    } finally {
      await downloaded.discard();
    }
  }
}

/**
 * A source's row as an attempt starts: a failure until it says otherwise, keeping what the last
 * success left (validators, hash, import id).
 */
export function newAttempt(
  dataset: string,
  url: string,
  previous: SourceState | undefined,
): SourceState {
  return {
    dataset,
    url,
    etag: previous?.etag ?? null,
    lastModified: previous?.lastModified ?? null,
    contentHash: previous?.contentHash ?? null,
    lastAttemptAt: Date.now(),
    lastSuccessAt: previous?.lastSuccessAt ?? null,
    outcome: 'failed',
    rowsInserted: 0,
    rowsUpdated: 0,
    rowsUnchanged: 0,
    rowsSkipped: 0,
    figuresCorrected: 0,
    lastImportId: previous?.lastImportId ?? null,
    lastError: null,
  };
}

/**
 * A source's row once an import of it has run: its counts, and unless it failed (nothing was
 * written then) its id, validators and hash, so that an unchanged file is not imported again.
 */
export function appliedState(
  attempt: SourceState,
  summary: ImportSummary,
  validators: Partial<SourceState>,
  hash: string,
): SourceState {
  const stopped =
    summary.failure ?? (summary.interrupted && `interrupted by ${summary.interrupted}`);
  if (stopped) return { ...attempt, lastError: stopped };
  return {
    ...attempt,
    ...validators,
    rowsInserted: summary.inserted,
    rowsUpdated: summary.updated,
    rowsUnchanged: summary.unchanged,
    rowsSkipped: summary.skipped.aggregate + summary.skipped['not-reported'],
    figuresCorrected: summary.corrected ?? 0,
    lastImportId: summary.importId,
    contentHash: hash,
    outcome: 'updated',
    lastSuccessAt: Date.now(),
    lastError: null,
  };
}
