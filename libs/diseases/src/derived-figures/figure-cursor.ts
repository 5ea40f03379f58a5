import { isCalendarDate } from '@app/common';

/** Where a page of a series ends: its last row's place (stored key) and date. */
export interface FigureCursor {
  key: string;
  date: string;
}

/** The `after` of the next page: opaque (base64url of `date,key`), as the lists' cursors are. */
export function encodeFigureCursor(cursor: FigureCursor): string {
  return Buffer.from(`${cursor.date},${cursor.key}`).toString('base64url');
}

/** The cursor `text` stands for, or undefined when it is not one this API wrote. */
export function decodeFigureCursor(text: unknown): FigureCursor | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]{1,600}$/.test(text)) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2}),(.{1,300})$/su.exec(
    Buffer.from(text, 'base64url').toString(),
  );
  if (!match || !isCalendarDate(match[1])) return undefined;
  const cursor = { date: match[1], key: match[2] };
  return encodeFigureCursor(cursor) === text ? cursor : undefined;
}
