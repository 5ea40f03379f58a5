import { ThrottlerGenerateKeyFunction } from '@nestjs/throttler';

/**
 * One key per client and throttler, whatever the route (the library's default key is per route).
 * A function of the tracker and the throttler's name only: the guard may keep the keys it made
 * for a caller and give the same strings again (`ClientThrottlerGuard.keysOf`).
 */
export const throttlerKey: ThrottlerGenerateKeyFunction = (_context, tracker, name) =>
  `${name}:${tracker}`;
