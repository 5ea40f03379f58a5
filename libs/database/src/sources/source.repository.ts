import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SqlRunner, placeholders } from '../sql-runner';

export type SourceOutcome = 'updated' | 'unchanged' | 'failed';

/** One source's state: what its server last answered and how the last attempt went. */
export interface SourceState {
  dataset: string;
  url: string;
  etag: string | null;
  lastModified: string | null;
  /** SHA-256 of the last imported bytes, hex. */
  contentHash: string | null;
  lastAttemptAt: number;
  lastSuccessAt: number | null;
  outcome: SourceOutcome;
  rowsInserted: number;
  rowsUpdated: number;
  /** Rows the file holds with the values already stored: not written again. */
  rowsUnchanged: number;
  /** Rows the import left out on purpose (aggregates, rows without figures). */
  rowsSkipped: number;
  /** Stored figures the last applied import corrected (docs/corrections.md); 0 if not given. */
  figuresCorrected?: number;
  /** The id of the last import applied (its revisions carry it). */
  lastImportId: string | null;
  lastError: string | null;
}

type Row = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const stateOf = (row: Row): SourceState => ({
  dataset: String(row.dataset),
  url: String(row.url),
  etag: text(row.etag),
  lastModified: text(row.last_modified),
  contentHash: text(row.content_hash),
  lastAttemptAt: Number(row.last_attempt_at),
  lastSuccessAt: row.last_success_at === null ? null : Number(row.last_success_at),
  outcome: String(row.outcome) as SourceOutcome,
  rowsInserted: Number(row.rows_inserted),
  rowsUpdated: Number(row.rows_updated),
  rowsUnchanged: Number(row.rows_unchanged),
  rowsSkipped: Number(row.rows_skipped),
  figuresCorrected: Number(row.figures_corrected ?? 0),
  lastImportId: text(row.last_import_id),
  lastError: text(row.last_error),
});

const urlHash = (url: string) => createHash('sha256').update(url).digest('hex');

const COLUMNS =
  'dataset, url, etag, last_modified, content_hash, last_attempt_at, last_success_at, outcome, rows_inserted, rows_updated, rows_unchanged, rows_skipped, figures_corrected, last_import_id, last_error';

/** All SQL of the `sources` table (one row per dataset and URL imported from). */
@Injectable()
export class SourceRepository {
  constructor(private readonly sql: SqlRunner) {}

  async find(dataset: string, url: string): Promise<SourceState | undefined> {
    const [row] = await this.sql.read<Row>(
      `SELECT ${COLUMNS} FROM sources WHERE dataset = ? AND url_hash = ?`,
      [dataset, urlHash(url)],
    );
    return row && stateOf(row);
  }

  async list(): Promise<SourceState[]> {
    const rows = await this.sql.read<Row>(`SELECT ${COLUMNS} FROM sources ORDER BY dataset, url`);
    return rows.map(stateOf);
  }

  /** Stores `state` as the row of its dataset and URL, created on the first attempt. */
  async save(state: SourceState): Promise<void> {
    const values = [
      state.etag,
      state.lastModified,
      state.contentHash,
      state.lastAttemptAt,
      state.lastSuccessAt,
      state.outcome,
      state.rowsInserted,
      state.rowsUpdated,
      state.rowsUnchanged,
      state.rowsSkipped,
      state.figuresCorrected ?? 0,
      state.lastImportId,
      state.lastError?.slice(0, 500) ?? null,
    ];
    const key = [state.dataset, urlHash(state.url)];
    await this.sql.transaction(async (manager) => {
      const found = await manager.query<Row[]>(
        'SELECT id FROM sources WHERE dataset = ? AND url_hash = ?',
        key,
      );
      if (found.length) {
        await manager.query(
          `UPDATE sources SET etag = ?, last_modified = ?, content_hash = ?, last_attempt_at = ?,
           last_success_at = ?, outcome = ?, rows_inserted = ?, rows_updated = ?, rows_unchanged = ?,
           rows_skipped = ?, figures_corrected = ?, last_import_id = ?, last_error = ?
           WHERE id = ?`,
          [...values, found[0].id],
        );
      } else {
        await manager.query(
          `INSERT INTO sources (${COLUMNS}, url_hash) VALUES (${placeholders(16)})`,
          [state.dataset, state.url, ...values, key[1]],
        );
      }
    });
  }
}
