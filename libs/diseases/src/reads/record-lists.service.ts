import { ApiError, MESSAGES, problemMessage, ConcurrencyLimit } from '@app/common';
import { countryLookupKey } from '@app/countries';
import { asOfInstant, RevisionsService } from '../history/revisions.service';
import { ListFormat, isWholeDownload, listChunks, listText } from '../list-format';
import { CachedValue, ReadCache } from '../read-cache';
import {
  ListCursor,
  decodeCursor,
  encodeCursor,
  ListFilter,
  ListQuery,
  RECORD_COLUMNS,
  StoredRecord,
  RecordReadsRepository,
} from '@app/database';

/** Records in a list whose query sets no `limit`. */
export const DEFAULT_LIST_LIMIT = 100;
/** Rows fetched per query while a list is streamed. */
export const LIST_PAGE_SIZE = 500;
/** Lists of at most this many records (the default limit) are cached as JSON text. */
export const CACHED_LIST_LIMIT = 100;

/**
 * A list answer in the format asked for: the text read through the cache (small lists), the
 * whole text when it fits in one page, otherwise chunks to stream. `next`: the cursor of the
 * page that follows (`after`), when there is one.
 */
export type ListBody = { next?: string } & (
  | { kind: 'cached'; answer: CachedValue<string> }
  | { kind: 'text'; text: string }
  | { kind: 'stream'; chunks: AsyncIterable<string> }
);

/** A page and the cursor of the next one, as kept in the read cache. */
interface ListPage {
  text: string;
  next?: string;
}

/** The record lists of a disease (`GET /<key>/data`): cached, read whole, or streamed. */
export class RecordLists {
  constructor(
    private readonly repository: RecordReadsRepository,
    private readonly history: RevisionsService,
    private readonly cache: ReadCache,
    private readonly listPages: ConcurrencyLimit,
  ) {}

  /**
   * The list in `format`. The first page is read before anything is sent, so that a database
   * error still gets a proper status; larger results are streamed page by page (memory stays
   * flat). A page that has a next one says where it starts (`next`, a cursor for `after`): small
   * pages read one record more than asked for; a streamed list first asks the index where its
   * `limit`-th record is and whether one follows, then ends exactly there, so that the cursor,
   * sent before the body, matches the body's last record even while others write.
   */
  async list(query: ListQuery, format: ListFormat = 'json'): Promise<ListBody> {
    const filter = this.listFilter(query);
    if (filter.asOf !== undefined) await this.history.checkKept(filter.asOf);
    if (isWholeDownload(query, format)) return this.whole(filter, format);
    // The key holds the whole filter, an instant (`asOf`) included.
    if (filter.limit <= CACHED_LIST_LIMIT) {
      const key = `list:${format}:${JSON.stringify(filter)}`;
      const page = await this.cache.getCached(key, () => this.readPage(filter, format));
      return { kind: 'cached', answer: page.map((p) => p.text), next: page.value.next };
    }
    if (filter.limit <= LIST_PAGE_SIZE) {
      const { text, next } = await this.listPages.run(() => this.readPage(filter, format));
      return { kind: 'text', text, next };
    }
    const first = await this.listPages.run(() => this.repository.page(filter, LIST_PAGE_SIZE));
    if (first.length < LIST_PAGE_SIZE) {
      return { kind: 'text', text: listText(format, RECORD_COLUMNS, first) };
    }
    const last = first[first.length - 1];
    const end = await this.listPages.run(() =>
      this.repository.boundary(filter, filter.limit - LIST_PAGE_SIZE, cursorOf(last)),
    );
    // Bounded by the record the cursor names rather than by a count: a record written meanwhile
    // may lengthen the body, but none that existed is left out before the cursor.
    const streamed: ListFilter = end.last
      ? { ...filter, limit: Number.MAX_SAFE_INTEGER, until: end.last }
      : { ...filter, limit: Number.MAX_SAFE_INTEGER };
    const pages = this.repository.pages(streamed, LIST_PAGE_SIZE, {
      first,
      run: (read) => this.listPages.run(read),
    });
    return {
      kind: 'stream',
      chunks: listChunks(format, RECORD_COLUMNS, pages),
      next: end.last && end.more ? encodeCursor(end.last) : undefined,
    };
  }

  /**
   * The whole selection (a download: CSV or NDJSON without `limit`, decision 0049): read by
   * keyset page after page and streamed, no `Link`. The first page is read before anything is
   * sent, as above; a selection that fits in it is answered as one text.
   */
  private async whole(filter: ListFilter, format: ListFormat): Promise<ListBody> {
    const all: ListFilter = { ...filter, limit: Number.MAX_SAFE_INTEGER };
    const first = await this.listPages.run(() => this.repository.page(all, LIST_PAGE_SIZE));
    if (first.length < LIST_PAGE_SIZE) {
      return { kind: 'text', text: listText(format, RECORD_COLUMNS, first) };
    }
    const pages = this.repository.pages(all, LIST_PAGE_SIZE, {
      first,
      run: (read) => this.listPages.run(read),
    });
    return { kind: 'stream', chunks: listChunks(format, RECORD_COLUMNS, pages) };
  }

  private listFilter(query: ListQuery): ListFilter {
    const after = query.after === undefined ? undefined : decodeCursor(query.after);
    if (query.after !== undefined && after === undefined) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'after', problem: 'not-a-cursor' }),
      ]);
    }
    if (after && query.offset !== undefined) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'after', problem: 'not-with', other: 'offset' }),
      ]);
    }
    const filter: ListFilter = {
      countryKey: query.country === undefined ? undefined : countryLookupKey(query.country),
      from: query.from,
      to: query.to,
      limit: query.limit ?? DEFAULT_LIST_LIMIT,
      offset: query.offset ?? 0,
      ...(after && { after }),
      ...(query.as_of !== undefined && { asOf: asOfInstant(query.as_of) }),
    };
    if (filter.from && filter.to && filter.from > filter.to) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'from', problem: 'later-than', other: 'to' }),
      ]);
    }
    return filter;
  }

  /** One page of at most `filter.limit` records in one query, with one record more to look ahead. */
  private async readPage(filter: ListFilter, format: ListFormat): Promise<ListPage> {
    const records = await this.repository.page(filter, filter.limit + 1);
    if (records.length <= filter.limit) return { text: listText(format, RECORD_COLUMNS, records) };
    const page = records.slice(0, filter.limit);
    return {
      text: listText(format, RECORD_COLUMNS, page),
      next: encodeCursor(cursorOf(page[page.length - 1])),
    };
  }
}

function cursorOf(record: StoredRecord): ListCursor {
  return { date: record.date, id: record.id };
}
