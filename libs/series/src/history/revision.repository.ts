import { DataSource, EntityManager } from 'typeorm';
import { countryKey } from '@app/common';
import { withDeadline } from '@app/database';
import { Row, recordValuesOf } from '../record-rows';
import { ChangeOrigin, RecordValues, SeriesDefinition } from '../series.types';

/** What a revision did to its record. */
export type ChangeKind = 'create' | 'update' | 'delete';

/**
 * A revision to append: the record's id and its values after the change; a deletion's are those
 * the record had (kept for reads as of a moment, never shown: a deletion reads as no values).
 */
export interface NewRevision {
  recordId: number;
  kind: ChangeKind;
  values: RecordValues | null;
}

/** A stored revision. */
export interface StoredRevision {
  /** Orders every revision of the table (the change feed's position). */
  id: number;
  recordId: number;
  /** Epoch milliseconds. */
  at: number;
  actor: string;
  requestId: string | null;
  kind: ChangeKind;
  values: RecordValues | null;
}

/** Revisions per INSERT statement (12 parameters each: within both drivers' limits). */
const APPEND_CHUNK = 500;

const VALUE_COLUMNS = 'date, country, total_cases, new_cases, total_deaths, new_deaths';

function toRevision(row: Row): StoredRevision {
  return {
    id: Number(row.id),
    recordId: Number(row.record_id),
    at: Number(row.at),
    actor: String(row.actor),
    requestId: typeof row.request_id === 'string' ? row.request_id : null,
    kind: String(row.kind) as ChangeKind,
    // A deletion keeps no values.
    values: row.kind === 'delete' ? null : recordValuesOf(row),
  };
}

/**
 * All SQL of one disease's history table (`<key>_revisions`): revisions are only ever appended,
 * inside the transaction of the write they describe, so a change and its revision commit together.
 */
export class RevisionRepository {
  private readonly table: string;

  constructor(
    private readonly dataSource: DataSource,
    definition: SeriesDefinition,
    private readonly deadlineMs?: number,
  ) {
    this.table = `${definition.key}_revisions`;
  }

  /** Appends `revisions` (in their order) within the caller's transaction (`manager`). */
  async append(
    manager: EntityManager,
    origin: ChangeOrigin,
    revisions: NewRevision[],
    at = Date.now(),
  ): Promise<void> {
    for (let start = 0; start < revisions.length; start += APPEND_CHUNK) {
      const chunk = revisions.slice(start, start + APPEND_CHUNK);
      const placeholders = chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      await manager.query(
        `INSERT INTO ${this.table} (record_id, at, actor, request_id, kind, ${VALUE_COLUMNS},
           country_key) VALUES ${placeholders}`,
        chunk.flatMap(({ recordId, kind, values }) => [
          recordId,
          at,
          origin.actor,
          origin.requestId ?? null,
          kind,
          values?.date ?? null,
          values?.country ?? null,
          values?.total_cases ?? null,
          values?.new_cases ?? null,
          values?.total_deaths ?? null,
          values?.new_deaths ?? null,
          values === null ? null : countryKey(values.country),
        ]),
      );
    }
  }

  /** The records that `actor` changed at `since` (epoch ms) or later, by id. */
  async recordsChangedBy(actor: string, since: number): Promise<number[]> {
    const rows = await this.dataSource.query<Row[]>(
      `SELECT DISTINCT record_id FROM ${this.table} WHERE actor = ? AND at >= ? ORDER BY record_id`,
      [actor, since],
    );
    return rows.map((row) => Number(row.record_id));
  }

  /** A record's revisions, oldest first; none for an id that never existed. */
  async ofRecord(recordId: number): Promise<StoredRevision[]> {
    const rows = await withDeadline(
      this.dataSource.query<Row[]>(
        `SELECT id, record_id, at, actor, request_id, kind, ${VALUE_COLUMNS} FROM ${this.table}
         WHERE record_id = ? ORDER BY id`,
        [recordId],
      ),
      this.deadlineMs,
    );
    return rows.map(toRevision);
  }

  /** At least as many as the revisions of the table (ids count from 1), read from the index. */
  async upperCount(): Promise<number> {
    const [row] = await withDeadline(
      this.dataSource.query<Row[]>(`SELECT MAX(id) AS top FROM ${this.table}`),
      this.deadlineMs,
    );
    return Number(row?.top ?? 0);
  }

  /**
   * The records as they stood at `asOf` (epoch ms), as a derived table `t` with the data table's
   * columns: each record's latest revision at that instant, unless it was a deletion. Both
   * databases merge it into the query that reads it, so that query's filters on `country_key`
   * and `date` pick the candidates by index first; each is then kept only if no later revision of
   * its record precedes `asOf` (a seek in the `(record_id, id)` index).
   */
  asOfTable(asOf: number): { sql: string; params: unknown[] } {
    return {
      sql: `(SELECT r.record_id AS id, r.${VALUE_COLUMNS.replace(/, /g, ', r.')}, r.country_key
         FROM ${this.table} r
         WHERE r.at <= ? AND r.kind <> 'delete' AND NOT EXISTS (
           SELECT 1 FROM ${this.table} n WHERE n.record_id = r.record_id AND n.id > r.id AND n.at <= ?)
       ) t`,
      params: [asOf, asOf],
    };
  }
}
