import { isCalendarDate } from '@app/common';

/** Where a page of a list ends: its last record's date and id (the list's order). */
export interface ListCursor {
  date: string;
  id: number;
}

/**
 * The `after` value of the next page: opaque to clients (base64url of `date,id`), so that the
 * keyset behind it may change without breaking a client that only follows `Link` headers.
 */
export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(`${cursor.date},${cursor.id}`).toString('base64url');
}

/** The cursor `text` stands for, or undefined when it is not one this API wrote. */
export function decodeCursor(text: unknown): ListCursor | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(text)) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2}),([1-9]\d{0,15})$/.exec(
    Buffer.from(text, 'base64url').toString('latin1'),
  );
  if (!match || !isCalendarDate(match[1])) return undefined;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return undefined;
  const cursor = { date: match[1], id };
  // One spelling per cursor: base64url decoding forgives stray bits and padding.
  return encodeCursor(cursor) === text ? cursor : undefined;
}
