import { recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

describe('rate limiting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ THROTTLE_LIMIT: '3', THROTTLE_TTL: '60' });
  });
  afterAll(() => t.close());

  it('gives each client one budget across routes, then 429 with Retry-After', async () => {
    const routes = ['/api/covid/data', '/api/covid/countries', '/api/mpox/data'];
    for (const route of routes) {
      const res = await t.http.get(route).set(t.auth('alice'));
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
    }
    const res = await t.http.get('/api/stats/summary').set(t.auth('alice'));
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'Trop de requêtes. Réessayez plus tard.' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another client keeps its own budget; anonymous callers are counted by address.
    expect((await t.http.get('/api/covid/data').set(t.auth('bob'))).status).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await t.http.get('/api/covid/public/latest')).status).toBe(200);
    const anonymous = await t.http.get('/api/covid/public/totals');
    expect(anonymous.status).toBe(429);
    expect(Number(anonymous.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts a wrong token against the address, before the token check', async () => {
    const res = await t.http.get('/api/covid/data').set('Authorization', 'Bearer guess-0001');
    expect(res.status).toBe(429);
  });

  it('never limits health checks', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await t.http.get('/api/health');
      expect(res.status).toBe(200);
    }
  });
});

describe('rate limiting by address (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ THROTTLE_LIMIT: '2', THROTTLE_TTL: '60', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  const from = (address: string) =>
    t.http.get('/api/covid/public/latest').set('X-Forwarded-For', address);

  it('counts an IPv6 address by its /64, as the library does: changing address within it does not help', async () => {
    expect((await from('2001:db8:1:2::1')).status).toBe(200);
    expect((await from('2001:db8:1:2::2')).status).toBe(200);
    const third = await from('2001:db8:1:2:ffff:ffff:ffff:ffff');
    expect(third.status).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another /64, another budget; IPv4 addresses count one by one.
    expect((await from('2001:db8:1:3::1')).status).toBe(200);
    expect((await from('192.0.2.1')).status).toBe(200);
    expect((await from('192.0.2.2')).status).toBe(200);
  });

  it('takes the address the trusted proxy saw, not what the client wrote before it', async () => {
    // The caller (198.51.100.7 as the loopback proxy saw it) forges a new first entry each time.
    const statuses = [];
    for (const forged of ['10.9.9.1', '10.9.9.2', '10.9.9.3'])
      statuses.push((await from(`${forged}, 198.51.100.7`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await from('10.9.9.4, 198.51.100.8')).status).toBe(200);
  });
});

describe('rate-limit headers on errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ THROTTLE_LIMIT: '100', THROTTLE_TTL: '60' });
  });
  afterAll(() => t.close());

  const FRANCE = recordBody({ date: '2021-01-01', country: 'France', total_cases: 1 });
  const counted = (res: { headers: Record<string, string> }) =>
    ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map(
      (h) => h in res.headers,
    );

  it('are on every answer the rate limit counted, errors included, and on no other', async () => {
    const answers = {
      unauthorized: await t.http.get('/api/covid/data'),
      invalid: await t.http.get('/api/covid/data?limit=-1').set(t.auth()),
      notFound: await t.http.get('/api/covid/public/country/Atlantis'),
      noRoute: await t.http.get('/api/nothing-here'),
      created: await t.http.post('/api/covid/data').set(t.auth()).send(FRANCE),
      conflict: await t.http.post('/api/covid/data').set(t.auth()).send(FRANCE),
      malformed: await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .set('Content-Type', 'application/json')
        .send('{"date":'),
      unsupported: await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .set('Content-Type', 'text/plain')
        .send('x'),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([name, res]) => [name, [res.status, ...counted(res)]]),
    );
    // Counted: the rate-limit guard runs first of the guards, so a 401 is counted too. Not
    // counted: what is refused before any guard (body parsing, an unknown route).
    const yes = [true, true, true];
    const no = [false, false, false];
    expect(seen).toEqual({
      unauthorized: [401, ...yes],
      invalid: [400, ...yes],
      notFound: [404, ...yes],
      created: [201, ...yes],
      conflict: [409, ...yes],
      malformed: [400, ...no],
      unsupported: [415, ...no],
      noRoute: [404, ...no],
    });
  });

  it('are not on the 429 of the limit that refused (Retry-After is)', async () => {
    const small = await bootTestApp({ THROTTLE_LIMIT: '1', THROTTLE_TTL: '60' });
    try {
      expect((await small.http.get('/api/covid/public/latest')).status).toBe(200);
      const refused = await small.http.get('/api/covid/public/latest');
      expect([refused.status, ...counted(refused)]).toEqual([429, false, false, false]);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await small.close();
    }
  });
});
