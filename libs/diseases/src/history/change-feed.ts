import { ListColumns, ListFormat, listChunks, listText } from '../list-format';
import { encodeChangeCursor } from './change-cursor';
import { RECORD_COLUMNS, StoredRecord, ChangeKind, FeedRevision } from '@app/database';

/** Changes per page of the feed when the query sets no `limit`, and at most. */
export const DEFAULT_FEED_LIMIT = 1000;
export const MAX_FEED_LIMIT = 10_000;

/** The query of `GET /<key>/changes`, once validated. */
export interface ChangeFeedQuery {
  after?: string;
  since?: string;
  limit?: number;
}

/** One change as the feed answers it. */
export interface RecordChange {
  /** Where the feed resumes after this change (`after`). */
  cursor: string;
  /** ISO 8601, UTC, milliseconds. */
  at: string;
  actor: string;
  change: ChangeKind;
  /** The record's id. */
  id: number;
  /** The record after the change; null for a deletion. */
  record: StoredRecord | null;
}

/** A page of the feed in its format, and the cursor of the next one (none for an empty page). */
export interface ChangeFeedPage {
  text: string;
  next: string | null;
}

/** One CSV row per change: the record's fields flattened, blank for a deletion. */
type ChangeRow = Omit<RecordChange, 'record'> & Partial<Omit<StoredRecord, 'id'>>;

const CHANGE_COLUMNS: ListColumns<ChangeRow> = [
  'cursor',
  'at',
  'actor',
  'change',
  ...RECORD_COLUMNS,
];

function toChange(revision: FeedRevision): RecordChange {
  return {
    cursor: encodeChangeCursor(revision),
    at: new Date(revision.at).toISOString(),
    actor: revision.actor,
    change: revision.kind,
    id: revision.recordId,
    record: revision.values === null ? null : { id: revision.recordId, ...revision.values },
  };
}

function toRow({ record, ...change }: RecordChange): ChangeRow {
  // The record's id is the change's.
  return record === null ? change : { ...change, ...record };
}

/**
 * A page of revisions as the feed answers it: JSON `{changes, next}`, or one CSV row or NDJSON
 * line per change (their `next` goes in the `Link` header). `next`: the last change's cursor.
 */
export function changeFeedPage(revisions: FeedRevision[], format: ListFormat): ChangeFeedPage {
  const changes = revisions.map(toChange);
  const next = changes.length === 0 ? null : changes[changes.length - 1].cursor;
  if (format === 'json') return { text: JSON.stringify({ changes, next }), next };
  if (format === 'ndjson') return { text: listText<RecordChange>(format, [], changes), next };
  return { text: listText(format, CHANGE_COLUMNS, changes.map(toRow)), next };
}

/** The whole feed as chunks of `format` (a download, decision 0049), from pages of revisions. */
export function changeFeedChunks(
  pages: AsyncIterable<FeedRevision[]>,
  format: Exclude<ListFormat, 'json'>,
): AsyncGenerator<string> {
  const changes = mapPages(pages, (revisions) => revisions.map(toChange));
  if (format === 'ndjson') return listChunks<RecordChange>(format, [], changes);
  return listChunks(
    format,
    CHANGE_COLUMNS,
    mapPages(changes, (page) => page.map(toRow)),
  );
}

async function* mapPages<T, U>(pages: AsyncIterable<T[]>, map: (page: T[]) => U[]) {
  for await (const page of pages) yield map(page);
}
