/**
 * Decision 0049: a query parameter a route does not read is a 400 naming it, on every route of
 * the OpenAPI document (public and token, reads and writes); the cache buster `_` is accepted.
 */
import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

interface Operation {
  method: string;
  path: string;
}

/** A path of the document with its parameters filled in: a real country, an id. */
const filled = (path: string) =>
  path
    .replace('{country}', 'France')
    .replace('{id}', '1')
    .replace(/\{[^}]+\}/g, 'x');

describe('unknown query parameters', () => {
  let t: TestApp;
  let operations: Operation[];
  let documented: string[];
  beforeAll(async () => {
    t = await bootTestApp();
    const doc = (await t.http.get('/api/docs-json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method, path: filled(path) })),
    );
    documented = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map(
        (op) =>
          (op as { responses: Record<string, { description?: string }> }).responses['400']
            ?.description ?? 'none',
      ),
    );
  });
  afterAll(() => t.close());

  const send = (op: Operation, query: string) =>
    t.http[op.method as 'get' | 'post' | 'put' | 'delete'](`${op.path}?${query}`).set(t.auth());

  it('the document lists every route, writes included', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
    expect(operations).toContainEqual({ method: 'put', path: '/api/covid/data/1' });
    expect(operations).toContainEqual({ method: 'get', path: '/api/health' });
    // Each operation documents its 400 for an unknown parameter.
    for (const description of documented) {
      expect(description).toContain('a query parameter the route does not read');
    }
  });

  it('refuses an unknown parameter on every route, naming it', async () => {
    const answers = [];
    for (const op of operations) {
      const res = await send(op, 'contry=France');
      answers.push({ ...op, status: res.status, body: res.body as unknown });
    }
    expect(answers).toEqual(
      operations.map((op) => ({
        ...op,
        status: 400,
        body: { error: MESSAGES.invalidQuery, details: ['contry : paramètre inconnu'] },
      })),
    );
  });

  it('names each unknown one, beside a known one', async () => {
    const res = await t.http.get('/api/covid/series?country=France&lags=3&smooth=7').set(t.auth());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: MESSAGES.invalidQuery,
      details: ['lags : paramètre inconnu', 'smooth : paramètre inconnu'],
    });
  });

  it('answers the cache buster `_` as if it were absent, on every route', async () => {
    const answers = [];
    for (const op of operations) {
      const plain = await send(op, '');
      const busted = await send(op, `_=${Date.now()}`);
      answers.push({ ...op, status: busted.status, busted: busted.body as unknown });
      expect({ ...op, status: plain.status }).toEqual({ ...op, status: busted.status });
    }
    for (const answer of answers) {
      expect(JSON.stringify(answer.busted)).not.toContain('paramètre inconnu');
    }
  });

  it('names odd ones as sent, and leaves stray separators alone', async () => {
    for (const name of ['__proto__', 'constructor', 'limit[a]', 'Country']) {
      const res = await t.http.get(`/api/covid/data?${name}=1`).set(t.auth());
      expect({ name, status: res.status, body: res.body as unknown }).toEqual({
        name,
        status: 400,
        body: { error: MESSAGES.invalidQuery, details: [`${name} : paramètre inconnu`] },
      });
    }
    for (const query of ['limit=5&', '&limit=5&&', 'limit=5&=', '_&limit=5']) {
      const res = await t.http.get(`/api/covid/data?${query}`).set(t.auth());
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
    }
  });

  it('refuses before any write: nothing is created', async () => {
    const body = {
      date: '2021-01-01',
      country: 'France',
      total_cases: 1,
      new_cases: 1,
      total_deaths: 0,
      new_deaths: 0,
    };
    const res = await t.http.post('/api/covid/data?dry_run=1').set(t.auth()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: MESSAGES.invalidQuery,
      details: ['dry_run : paramètre inconnu'],
    });
    const list = await t.http.get('/api/covid/data?country=France').set(t.auth());
    expect(list.body).toEqual([]);
  });

  it('keeps answering the known parameters', async () => {
    const res = await t.http.get('/api/covid/data?country=France&limit=5&format=csv').set(t.auth());
    expect(res.status).toBe(200);
    expect(res.text).toBe('id,date,country,total_cases,new_cases,total_deaths,new_deaths\r\n');
  });
});
