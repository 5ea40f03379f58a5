import { isCalendarDate } from '@app/common';

/**
 * A version's place in `/vintages`: its place key and date, then, within them, the figure's index
 * in `VINTAGE_FIELDS` and the event that issued it (commit `seq`, 0 for a move away before 1 for a
 * revision, revision id). `field` = `VINTAGE_FIELDS.length`: past every version of that place and
 * date (a page that stopped reading before it filled).
 */
export interface VintagePosition {
  key: string;
  date: string;
  field: number;
  seq: number;
  order: number;
  id: number;
}

/** Opaque, as the other lists' cursors: base64url of `date,field.seq.order.id,key`. */
export function encodeVintageCursor(p: VintagePosition): string {
  return Buffer.from(`${p.date},${p.field}.${p.seq}.${p.order}.${p.id},${p.key}`).toString(
    'base64url',
  );
}

/** The position `text` stands for, or undefined when it is not a cursor this API wrote. */
export function decodeVintageCursor(text: unknown): VintagePosition | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]{1,700}$/.test(text)) return undefined;
  const match =
    /^(\d{4}-\d{2}-\d{2}),([0-4])\.(0|[1-9]\d{0,15})\.([01])\.(0|[1-9]\d{0,15}),(.{1,300})$/su.exec(
      Buffer.from(text, 'base64url').toString(),
    );
  if (!match || !isCalendarDate(match[1])) return undefined;
  const position: VintagePosition = {
    date: match[1],
    field: Number(match[2]),
    seq: Number(match[3]),
    order: Number(match[4]),
    id: Number(match[5]),
    key: match[6],
  };
  if (!Number.isSafeInteger(position.seq) || !Number.isSafeInteger(position.id)) return undefined;
  // One spelling per cursor: base64url decoding forgives stray bits and padding.
  return encodeVintageCursor(position) === text ? position : undefined;
}
