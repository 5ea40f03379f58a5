import { FeedPosition } from '@app/database';

/**
 * A change's place in the feed as clients see it: opaque (base64url of `seq.id`, its commit and
 * its revision), so that a page may end inside a large transaction and the keyset behind it may
 * change without breaking clients.
 */
export function encodeChangeCursor(position: FeedPosition): string {
  return Buffer.from(`${position.seq}.${position.id}`).toString('base64url');
}

/** The position `text` stands for, or undefined when it is not a cursor this API wrote. */
export function decodeChangeCursor(text: unknown): FeedPosition | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(text)) return undefined;
  const match = /^([1-9]\d{0,15})\.([1-9]\d{0,15})$/.exec(
    Buffer.from(text, 'base64url').toString('latin1'),
  );
  if (!match) return undefined;
  const position = { seq: Number(match[1]), id: Number(match[2]) };
  if (!Number.isSafeInteger(position.seq) || !Number.isSafeInteger(position.id)) return undefined;
  // One spelling per cursor: base64url decoding forgives stray bits and padding.
  return encodeChangeCursor(position) === text ? position : undefined;
}
