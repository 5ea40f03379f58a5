import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a token, as stored and as looked up (never the token itself). */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Compares two secrets in time that does not depend on where they differ: both are hashed to
 * 32 bytes first, so neither their lengths nor a common prefix show in the timing.
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hashToken(a), hashToken(b));
}
