/**
 * Load above the rate limit: the flooding client gets 429 with `Retry-After`, other clients within
 * their budget keep getting 200, health is never limited, and the in-memory counters of a stream
 * of distinct client addresses are swept once idle (memory stays bounded). `npm run soak` is the
 * long version against the built server.
 */
import { CLIENT_TIMEOUTS } from '@api/client-timeouts';
import { MemoryThrottlerStorage } from '@api/rate-limit/memory-throttler.storage';
import { MESSAGES } from '@app/common';
import { THROTTLER_STORAGE } from '@api/rate-limit/throttler-storage.module';
import { TestApp, bootTestApp } from '../../support/test-app';

const LIMIT = 10;
const TTL_SECONDS = 4;
const DISTINCT_CLIENTS = Number(process.env.OVERLOAD_CLIENTS ?? 2000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('overload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({
      THROTTLE_LIMIT: String(LIMIT),
      THROTTLE_TTL: String(TTL_SECONDS),
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => t.close());

  it('refuses the flood with 429 and Retry-After while clients within budget keep succeeding', async () => {
    const flood = Array.from({ length: 60 }, () =>
      t.http.get('/api/covid/public/latest').set(from('203.0.113.1')),
    );
    const polite = Array.from({ length: LIMIT }, () =>
      t.http.get('/api/covid/public/latest').set(from('203.0.113.2')),
    );
    const client = Array.from({ length: LIMIT }, () =>
      t.http.get('/api/covid/data').set(from('203.0.113.1')).set(t.auth('bob')),
    );
    const health = Array.from({ length: 30 }, () =>
      t.http.get('/api/health').set(from('203.0.113.1')),
    );
    const [flooded, served, tokenClient, checks] = await Promise.all(
      [flood, polite, client, health].map((batch) => Promise.all(batch)),
    );

    expect(flooded.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    const refused = flooded.filter((r) => r.status === 429);
    expect(refused).toHaveLength(60 - LIMIT);
    for (const res of refused) {
      expect(res.body).toEqual({ error: MESSAGES.tooManyRequests });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(TTL_SECONDS);
    }
    // Other clients (another address; a token's client, even from the flooding address) and
    // health checks are not affected.
    expect(served.map((r) => r.status)).toEqual(served.map(() => 200));
    expect(tokenClient.map((r) => r.status)).toEqual(tokenClient.map(() => 200));
    expect(checks.map((r) => r.status)).toEqual(checks.map(() => 200));

    // Once Retry-After has passed, the flooding client is served again.
    await sleep(Math.max(...refused.map((r) => Number(r.headers['retry-after']))) * 1000 + 200);
    await t.http.get('/api/covid/public/latest').set(from('203.0.113.1')).expect(200);
  });

  it('bounds how long a client may hold a connection (headers, whole request, silence)', () => {
    // Slow senders (slowloris) get 408; a streamed list's connection is closed once no byte moved
    // for 30 s (the list-streaming test; docs/reliability.md gives the measurement).
    const server = t.app.getHttpServer();
    expect([server.headersTimeout, server.requestTimeout, server.timeout]).toEqual([
      20_000, 60_000, 0,
    ]);
    expect(CLIENT_TIMEOUTS).toEqual({ headersMs: 20_000, requestMs: 60_000, idleMs: 30_000 });
  });

  it('sweeps the counters of distinct client addresses once they are idle', async () => {
    const storage = t.app.get<MemoryThrottlerStorage>(THROTTLER_STORAGE);
    expect(storage).toBeInstanceOf(MemoryThrottlerStorage);
    const heapBefore = process.memoryUsage().heapUsed;
    let sent = 0;
    let largest = 0;
    for (let batch = 0; sent < DISTINCT_CLIENTS; batch++) {
      const size = Math.min(100, DISTINCT_CLIENTS - sent);
      const answers = await Promise.all(
        Array.from({ length: size }, (_, i) => {
          const n = sent + i;
          return t.http
            .get('/api/covid/public/totals')
            .set(from(`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`));
        }),
      );
      expect(answers.filter((r) => r.status !== 200)).toEqual([]);
      sent += size;
      largest = Math.max(largest, storage.size);
    }
    const heapPeak = process.memoryUsage().heapUsed;
    // One counter per address seen within the last TTLs (older ones may already be swept).
    expect(largest).toBeGreaterThanOrEqual(100);
    expect(largest).toBeLessThanOrEqual(DISTINCT_CLIENTS + 3);

    // Counters expire after the TTL and are swept within one more TTL.
    await sleep(2 * TTL_SECONDS * 1000 + 1000);
    expect(storage.size).toBe(0);
    process.stdout.write(
      `overload: ${DISTINCT_CLIENTS} distinct addresses -> at most ${largest} counters, 0 after ` +
        `${2 * TTL_SECONDS + 1} s idle; heap ${Math.round(heapBefore / 2 ** 20)} -> ` +
        `${Math.round(heapPeak / 2 ** 20)} MiB during the run\n`,
    );
  });
});
