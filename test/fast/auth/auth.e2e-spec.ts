import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const NO_TOKEN = { error: 'Accès refusé. Aucun jeton fourni.' };
const INVALID_TOKEN = { error: 'Jeton invalide.' };

describe('authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const protectedRoutes: [string, string][] = [
    ['get', '/api/covid/data'],
    ['post', '/api/covid/data'],
    ['put', '/api/covid/data/1'],
    ['delete', '/api/covid/data/1'],
    ['get', '/api/covid/countries'],
    ['get', '/api/covid/stats?country=France'],
    ['get', '/api/mpox/data'],
    ['post', '/api/mpox/data'],
    ['put', '/api/mpox/data/1'],
    ['delete', '/api/mpox/data/1'],
    ['get', '/api/mpox/countries'],
    ['get', '/api/mpox/stats?country=France'],
    ['get', '/api/stats/summary'],
  ];

  it.each(protectedRoutes)('%s %s without a token answers 401 "no token"', async (method, path) => {
    const res = await t.http[method as 'get'](path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NO_TOKEN);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it.each(protectedRoutes)(
    '%s %s with an unknown token answers 401 "invalid token"',
    async (method, path) => {
      const res = await t.http[method as 'get'](path).set(
        'Authorization',
        'Bearer not-a-known-token',
      );
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID_TOKEN);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    },
  );

  it.each([
    ['an empty token', 'Bearer '],
    ['a bare scheme', 'Bearer'],
    ['another scheme', `Basic ${TOKENS.alice}`],
    ['a token without scheme', TOKENS.alice],
    ['an empty header', ''],
  ])('counts %s as no token', async (_name, header) => {
    const res = await t.http.get('/api/covid/data').set('Authorization', header);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NO_TOKEN);
  });

  it('accepts the scheme word in any case and each client its own token', async () => {
    for (const header of [
      `Bearer ${TOKENS.alice}`,
      `bearer ${TOKENS.bob}`,
      `BEARER   ${TOKENS.alice}  `,
    ]) {
      const res = await t.http.get('/api/covid/data').set('Authorization', header);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    }
  });

  it('refuses a token that differs by one character or is a prefix of a valid one', async () => {
    for (const token of [
      TOKENS.alice.slice(0, -1),
      `${TOKENS.alice}x`,
      TOKENS.alice.toUpperCase(),
    ]) {
      const res = await t.http.get('/api/covid/data').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID_TOKEN);
    }
  });

  it.each([
    '/api/covid/public/latest',
    '/api/covid/public/totals',
    '/api/mpox/public/summary',
    '/api/health',
  ])('serves public %s without a token, even with a wrong one', async (path) => {
    expect((await t.http.get(path)).status).toBe(200);
    expect((await t.http.get(path).set('Authorization', 'Bearer wrong-token')).status).toBe(200);
  });

  it('never echoes the token in an error body', async () => {
    const res = await t.http
      .get('/api/covid/data')
      .set('Authorization', 'Bearer secret-looking-token-123');
    expect(JSON.stringify(res.body)).not.toContain('secret-looking-token-123');
  });
});
