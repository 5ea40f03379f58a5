import Redis from 'ioredis';
import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from './support/test-app';

/** Our own Redis logical database, flushed at the start. */
const REDIS_URL = 'redis://127.0.0.1:6379/2';
const LIMIT = 12;

async function statusesAcross(instances: TestApp[], requests: number) {
  const responses = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      instances[i % instances.length].http
        .get('/api/covid/data?limit=1')
        .set(instances[0].auth('alice')),
    ),
  );
  for (const res of responses.filter((r) => r.status === 429)) {
    expect(res.body).toEqual({ error: MESSAGES.tooManyRequests });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }
  return {
    ok: responses.filter((r) => r.status === 200).length,
    limited: responses.filter((r) => r.status === 429).length,
  };
}

describe('several instances', () => {
  beforeAll(async () => {
    const redis = new Redis(REDIS_URL);
    await redis.flushdb();
    await redis.quit();
  });

  it('share one rate-limit budget per client through Redis (REDIS_URL)', async () => {
    const env = { REDIS_URL, THROTTLE_LIMIT: String(LIMIT), THROTTLE_TTL: '60' };
    const instances = [await bootTestApp(env), await bootTestApp(env)];
    try {
      const { ok, limited } = await statusesAcross(instances, 3 * LIMIT);
      expect(ok).toBe(LIMIT);
      expect(limited).toBe(2 * LIMIT);
      // Each instance served part of the budget and refuses now.
      for (const t of instances) {
        expect((await t.http.get('/api/stats/summary').set(t.auth('alice'))).status).toBe(429);
        // Another client has its own budget.
        expect((await t.http.get('/api/stats/summary').set(t.auth('bob'))).status).toBe(200);
      }
    } finally {
      await Promise.all(instances.map((t) => t.close()));
    }
  });

  it('without REDIS_URL each instance counts alone (what Redis prevents)', async () => {
    const env = { THROTTLE_LIMIT: String(LIMIT), THROTTLE_TTL: '60' };
    const instances = [await bootTestApp(env), await bootTestApp(env)];
    try {
      const { ok } = await statusesAcross(instances, 3 * LIMIT);
      expect(ok).toBe(2 * LIMIT);
    } finally {
      await Promise.all(instances.map((t) => t.close()));
    }
  });
});
