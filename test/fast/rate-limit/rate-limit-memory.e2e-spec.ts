import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

describe('rate limit with the in-memory storage (no REDIS_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ THROTTLE_LIMIT: '2', THROTTLE_TTL: '60' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limit, per client', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await t.http.get('/api/covid/countries').set(t.auth('alice'))).status).toBe(200);
    }
    const blocked = await t.http.get('/api/covid/public/latest').set(t.auth('alice'));
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBe('60');
    expect(blocked.body).toEqual({ error: MESSAGES.tooManyRequests });
    expect((await t.http.get('/api/covid/countries').set(t.auth('bob'))).status).toBe(200);
  });
});
