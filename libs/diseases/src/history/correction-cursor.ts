import { CorrectionPosition } from '@app/database';

/**
 * A correction's place in the list as clients see it: opaque (base64url of `seq.id.field`: its
 * revision's commit and id, and which of the revision's figures), as the change feed's cursors.
 */
export function encodeCorrectionCursor(position: CorrectionPosition): string {
  return Buffer.from(`${position.seq}.${position.id}.${position.field}`).toString('base64url');
}

/** The position `text` stands for, or undefined when it is not a cursor this API wrote. */
export function decodeCorrectionCursor(text: unknown): CorrectionPosition | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(text)) return undefined;
  const match = /^([1-9]\d{0,15})\.([1-9]\d{0,15})\.([0-7])$/.exec(
    Buffer.from(text, 'base64url').toString('latin1'),
  );
  if (!match) return undefined;
  const position = { seq: Number(match[1]), id: Number(match[2]), field: Number(match[3]) };
  if (!Number.isSafeInteger(position.seq) || !Number.isSafeInteger(position.id)) return undefined;
  // One spelling per cursor: base64url decoding forgives stray bits and padding.
  return encodeCorrectionCursor(position) === text ? position : undefined;
}
