import { SqlSession } from '../../sql-runner';
import { Row, recordValuesOf } from '../record-rows';
import { RecordValues } from '../disease.types';

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
  /**
   * Orders a record's revisions, and those of one transaction; the change feed orders
   * transactions by their commit (`FeedRevision.seq`).
   */
  id: number;
  recordId: number;
  /** Epoch milliseconds. */
  at: number;
  actor: string;
  requestId: string | null;
  kind: ChangeKind;
  values: RecordValues | null;
  /** A deletion: the values the record had when it was deleted (never shown). */
  removed?: RecordValues;
}

/** A stored revision with its place in the change feed. */
export interface FeedRevision extends StoredRevision {
  /** The commit (`<key>_revision_commits.seq`) of its transaction. */
  seq: number;
}

/** A place in the change feed: the last revision read, and its commit. */
export interface FeedPosition {
  seq: number;
  id: number;
}

/**
 * The revisions of one write transaction (see `RevisionRepository.changeSet`): `append` any
 * number of times, then `seal` once, as the transaction's last statement.
 */
export interface ChangeSet {
  /** Epoch milliseconds: the time of every revision appended. */
  readonly at: number;
  append(manager: SqlSession, revisions: NewRevision[]): Promise<void>;
  /**
   * Appends, as revisions of `kind`, copies of the rows `ids` of the data table `table` as they
   * are now (the values a create or an update wrote), copied by the database itself; into the
   * history table, or `into`, a copy of it (`SqliteCopySwapLoad`).
   */
  appendCopies(
    manager: SqlSession,
    table: string,
    kind: 'create' | 'update',
    ids: number[],
    into?: string,
  ): Promise<void>;
  seal(manager: SqlSession): Promise<void>;
}

/** A stored revision from its row. */
export function toRevision(row: Row): StoredRevision {
  return {
    id: Number(row.id),
    recordId: Number(row.record_id),
    at: Number(row.at),
    actor: String(row.actor),
    requestId: typeof row.request_id === 'string' ? row.request_id : null,
    kind: String(row.kind) as ChangeKind,
    // A deletion keeps no values.
    values: row.kind === 'delete' ? null : recordValuesOf(row),
    ...(row.kind === 'delete' && row.date !== null ? { removed: recordValuesOf(row) } : {}),
  };
}
