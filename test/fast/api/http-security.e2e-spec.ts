import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

const DASHBOARD = 'https://dashboard.example.org';

async function withApp(env: Record<string, string>, body: (t: TestApp) => Promise<void>) {
  const t = await bootTestApp(env);
  try {
    await body(t);
  } finally {
    await t.close();
  }
}

const HTML_ONLY_HEADERS = [
  'x-xss-protection',
  'x-download-options',
  'x-dns-prefetch-control',
  'origin-agent-cluster',
  'x-permitted-cross-domain-policies',
  'cross-origin-opener-policy',
];

describe('security headers', () => {
  it('are on every JSON response, errors included: the six API headers', () =>
    withApp({}, async (t) => {
      for (const res of [
        await t.http.get('/api/covid/public/latest'),
        await t.http.get('/api/mpox/public/country/France'),
        await t.http.get('/api/covid/data'),
        await t.http.get('/api/covid/data').set(t.auth()),
        await t.http.get('/api/covid/data?limit=0').set(t.auth()),
        await t.http.get('/api/nowhere'),
        await t.http.get('/api/docs-json'),
        // Refused by Fastify's router before any hook: a malformed encoding, a path too long.
        await t.http.get('/api/covid/data/%'),
        await t.http.get(`/api/covid/public/country/${'x'.repeat(600)}`),
      ]) {
        expect(res.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.headers['content-security-policy']).toBe(
          "default-src 'none'; frame-ancestors 'none'",
        );
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['strict-transport-security']).toBe(
          'max-age=31536000; includeSubDomains',
        );
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(res.headers['x-powered-by']).toBeUndefined();
        for (const name of HTML_ONLY_HEADERS) expect(res.headers[name]).toBeUndefined();
      }
    }));

  it("are helmet's whole set on the documentation page, with a policy that lets Swagger UI run", () =>
    withApp({}, async (t) => {
      const res = await t.http.get('/api/docs');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-xss-protection']).toBe('0');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }));
});

describe('CORS (CORS_ORIGINS)', () => {
  it('is off when CORS_ORIGINS is empty: no CORS header at all', () =>
    withApp({}, async (t) => {
      const res = await t.http.get('/api/covid/public/latest').set('Origin', DASHBOARD);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await t.http
        .options('/api/covid/data')
        .set('Origin', DASHBOARD)
        .set('Access-Control-Request-Method', 'POST');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    }));

  it('allows the listed origins only', () =>
    withApp({ CORS_ORIGINS: `${DASHBOARD}, https://partner.example.com` }, async (t) => {
      const res = await t.http.get('/api/covid/public/latest').set('Origin', DASHBOARD);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
      expect(res.headers.vary).toContain('Origin');
      expect(res.headers['access-control-expose-headers']).toBe(
        'X-Request-Id, Retry-After, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, ETag, Link, Content-Disposition',
      );
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();

      const preflight = await t.http
        .options('/api/covid/data')
        .set('Origin', 'https://partner.example.com')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://partner.example.com');
      expect(preflight.headers['access-control-allow-methods']).toBe(
        'GET, POST, PUT, DELETE, OPTIONS',
      );
      expect(preflight.headers['access-control-allow-headers']).toBe(
        'Authorization, Content-Type, X-Request-Id, If-None-Match',
      );
      expect(preflight.headers['access-control-max-age']).toBe('600');

      const other = await t.http
        .get('/api/covid/public/latest')
        .set('Origin', 'https://evil.example.net');
      expect(other.status).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    }));

  it('allows any origin with *', () =>
    withApp({ CORS_ORIGINS: '*' }, async (t) => {
      const res = await t.http.get('/api/covid/public/totals').set('Origin', DASHBOARD);
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }));
});

describe('body size limit (BODY_LIMIT)', () => {
  it('answers 413 JSON above the limit and stores nothing', () =>
    withApp({ BODY_LIMIT: '1kb' }, async (t) => {
      const record = {
        date: '2021-03-15',
        country: 'France',
        total_cases: 1,
        new_cases: 1,
        total_deaths: 0,
        new_deaths: 0,
      };
      const big = { ...record, active_cases: 'x'.repeat(2048) };
      const res = await t.http.post('/api/covid/data').set(t.auth()).send(big);
      expect(res.status).toBe(413);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ error: MESSAGES.payloadTooLarge });
      expect((await t.http.get('/api/covid/data').set(t.auth())).body).toEqual([]);

      // Just under the limit is accepted.
      const small = await t.http.post('/api/covid/data').set(t.auth()).send(record);
      expect(small.status).toBe(201);
    }));
});
