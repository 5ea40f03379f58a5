import { timingSafeEqual } from 'node:crypto';
import { hashToken } from '@app/common';

export { hashToken };

/**
 * Compares two secrets in time that does not depend on where they differ: both are hashed to
 * 32 bytes first, so neither their lengths nor a common prefix show in the timing.
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hashToken(a), hashToken(b));
}
