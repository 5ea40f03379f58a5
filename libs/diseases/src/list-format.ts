import { csvField } from '@app/common';
import { STREAM_TURNS } from './stream-turns';

/** How a list is written: a JSON array, CSV (RFC 4180, with a header row) or NDJSON. */
export const LIST_FORMATS = ['json', 'csv', 'ndjson'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export function isListFormat(value: unknown): value is ListFormat {
  return typeof value === 'string' && (LIST_FORMATS as readonly string[]).includes(value);
}

/**
 * A download: a CSV or NDJSON list whose query sets no `limit` is the whole selection, like a
 * data file, streamed; JSON keeps its pages (decision 0049).
 */
export function isWholeDownload(query: { limit?: number }, format: ListFormat): boolean {
  return format !== 'json' && query.limit === undefined;
}

/**
 * A page of a feed (the change feed, the corrections) in its format, and the cursor of the next
 * one (null for an empty page); or, for a download (`isWholeDownload`), the whole feed's chunks
 * to stream, without a cursor: each row carries its own (`cursor`, `at`).
 */
export type FeedBody = { text: string; next: string | null } | { chunks: AsyncIterable<string> };

/**
 * The pages of a feed read one after the other, `first` (read by the caller before anything is
 * sent, so that a database error still gets a proper status) then each starting past the
 * previous one's last item, until a page comes back empty: what a client following `Link`
 * headers does, in one stream.
 */
export async function* feedPages<T, C>(
  first: T[],
  read: (after: C) => Promise<T[]>,
  cursorOf: (item: T) => C,
): AsyncGenerator<T[]> {
  let page = first;
  while (page.length > 0) {
    yield page;
    page = await read(cursorOf(page[page.length - 1]));
  }
}

/** The fields of a list's items, in the order of their JSON keys (the CSV header row). */
export type ListColumns<T> = readonly (keyof T & string)[];

/** How one format writes a list: what comes first, each page of items, what comes last. */
interface ListWriter<T> {
  head: string;
  page(items: T[], first: boolean): string;
  tail: string;
}

function csvValue(value: unknown): string {
  return value === null || value === undefined ? '' : csvField(value as string | number);
}

function writer<T extends object>(format: ListFormat, columns: ListColumns<T>): ListWriter<T> {
  switch (format) {
    case 'json':
      return {
        head: '[',
        page: (items, first) =>
          items.length === 0 ? '' : `${first ? '' : ','}${JSON.stringify(items).slice(1, -1)}`,
        tail: ']',
      };
    case 'ndjson':
      return {
        head: '',
        page: (items) => items.map((item) => `${JSON.stringify(item)}\n`).join(''),
        tail: '',
      };
    case 'csv':
      return {
        head: `${columns.join(',')}\r\n`,
        page: (items) => {
          let text = '';
          for (const item of items) {
            text += `${columns.map((column) => csvValue(item[column])).join(',')}\r\n`;
          }
          return text;
        },
        tail: '',
      };
  }
}

/** A whole (small) list as text. */
export function listText<T extends object>(
  format: ListFormat,
  columns: ListColumns<T>,
  items: T[],
): string {
  const w = writer(format, columns);
  return `${w.head}${w.page(items, true)}${w.tail}`;
}

/**
 * A large list as text chunks, one page at a time. Streams move on through process.nextTick,
 * which runs before any I/O: without a turn of the event loop between pages, a whole dump would
 * run before other requests are read. One page of one stream per turn (`STREAM_TURNS`), so that
 * several dumps never run their pages back to back. The same for every format.
 */
export async function* listChunks<T extends object>(
  format: ListFormat,
  columns: ListColumns<T>,
  pages: AsyncIterable<T[]>,
): AsyncGenerator<string> {
  const w = writer(format, columns);
  let first = true;
  for await (const items of pages) {
    const text = w.page(items, first);
    yield first ? `${w.head}${text}` : text;
    first = false;
    await STREAM_TURNS.next();
  }
  if (first) yield w.head;
  yield w.tail;
}
