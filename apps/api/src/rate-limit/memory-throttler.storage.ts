import { ThrottlerStorageService } from '@nestjs/throttler';

/** @nestjs/throttler sweeps idle counters every 60 s. */
const LIBRARY_SWEEP_MS = 60_000;

/**
 * In-memory rate-limit counters, swept every TTL (at most every 60 s, the library's default):
 * a counter lives at most about two TTLs after its client's last request, so memory stays
 * proportional to the clients of the last two windows, however many addresses pass by.
 */
export class MemoryThrottlerStorage extends ThrottlerStorageService {
  protected override readonly sweepIntervalMs: number;

  constructor(ttlMs: number) {
    super();
    this.sweepIntervalMs = Math.max(1000, Math.min(LIBRARY_SWEEP_MS, ttlMs));
  }
}
