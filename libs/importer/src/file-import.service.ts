import { Injectable } from '@nestjs/common';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withSourceNames } from '@app/common';
import { SourceRepository } from '@app/database';
import { DiseaseDefinition } from '@app/diseases';
import { ImportProgress } from './import-progress';
import { ImportService, ImportSummary } from './import.service';
import { appliedState, newAttempt } from './url-import.service';

/**
 * Imports a file from disk and records it as a source (`file:///...`), as a URL's import is: every
 * applied file is listed by `sources` and `/api/sources` with its import id, hash and counts.
 */
@Injectable()
export class FileImportService {
  constructor(
    private readonly importer: ImportService,
    private readonly sources: SourceRepository,
  ) {}

  async run(
    disease: DiseaseDefinition,
    file: string,
    progress: ImportProgress,
    signal?: AbortSignal,
  ): Promise<ImportSummary> {
    const url = pathToFileURL(resolve(file)).href;
    const attempt = newAttempt(disease.key, url, await this.sources.find(disease.key, url));
    const summary = await this.importer.run(disease, file, progress, signal);
    // `/api/sources` shows the failure: naming the file, not the server's folders.
    const shown = summary.failure && withSourceNames(summary.failure, [resolve(file), file]);
    const saved = { ...summary, failure: shown };
    await this.sources.save(appliedState(attempt, saved, {}, summary.contentHash ?? ''));
    return summary;
  }
}
