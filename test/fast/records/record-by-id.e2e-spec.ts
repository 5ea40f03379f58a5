/**
 * `GET /api/{covid,mpox}/data/:id`: the record as the list gives it, with a strong `ETag` and a
 * 304 on `If-None-Match`; 404 for an id that does not exist (or no longer does), 400 for an id
 * that cannot exist (as PUT and DELETE); `as_of` gives the record as it stood then.
 */
import { DISEASE_KEYS, instantBetweenWrites, recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

const q = (value: string) => encodeURIComponent(value);

describe.each(DISEASE_KEYS)('GET /api/%s/data/:id', (key) => {
  let t: TestApp;
  const path = `/api/${key}/data`;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const create = async (overrides: Record<string, unknown>): Promise<number> => {
    const res = await t.http.post(path).set(t.auth()).send(recordBody(overrides));
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  };
  const get = (url: string) => t.http.get(url).set(t.auth('reader'));

  it('answers the record exactly as the list does, with its ETag and caching headers', async () => {
    const id = await create({ country: 'Peru', date: '2021-04-01', new_cases: 1.5 });
    const res = await get(`${path}/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      ...recordBody({ country: 'Peru', date: '2021-04-01', new_cases: 1.5 }),
    });
    const list = await get(`${path}?country=Peru`);
    expect(res.text).toBe(JSON.stringify((list.body as unknown[])[0]));
    expect(res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, no-cache',
      vary: 'Authorization',
    });
    expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
  });

  it('answers 304 without a body to If-None-Match with the current tag, 200 once it changed', async () => {
    const id = await create({ country: 'Peru', date: '2021-04-02' });
    const first = await get(`${path}/${id}`);
    const tag = String(first.headers.etag);
    const again = await get(`${path}/${id}`).set('If-None-Match', tag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(tag);
    expect(again.headers['content-type']).toBeUndefined();
    const put = await t.http
      .put(`${path}/${id}`)
      .set(t.auth())
      .send(recordBody({ country: 'Peru', date: '2021-04-02', total_cases: 7 }));
    expect(put.status).toBe(200);
    const changed = await get(`${path}/${id}`).set('If-None-Match', tag);
    expect(changed.status).toBe(200);
    expect((changed.body as { total_cases: number }).total_cases).toBe(7);
    expect(changed.headers.etag).not.toBe(tag);
  });

  it('answers 404 for an id that never existed and for a deleted record', async () => {
    const missing = await get(`${path}/987654321`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Enregistrement introuvable.' });
    const id = await create({ country: 'Peru', date: '2021-04-03' });
    expect((await t.http.delete(`${path}/${id}`).set(t.auth())).status).toBe(200);
    const gone = await get(`${path}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Enregistrement introuvable.' });
  });

  it.each(['abc', '0', '-1', '1.5', '1e3', '99999999999999999999'])(
    'refuses the id %s (400), as PUT and DELETE do',
    async (id) => {
      const res = await get(`${path}/${id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Paramètre de chemin invalide.',
        details: ['id : doit être un entier strictement positif'],
      });
    },
  );

  it('needs a token (401)', async () => {
    const res = await t.http.get(`${path}/1`);
    expect(res.status).toBe(401);
  });

  it('answers the record as of an instant, 404 before it existed and after its delete', async () => {
    const before = await instantBetweenWrites();
    const id = await create({ country: 'Bolivia', date: '2021-04-04', total_cases: 1 });
    const created = await instantBetweenWrites();
    const put = await t.http
      .put(`${path}/${id}`)
      .set(t.auth())
      .send(recordBody({ country: 'Bolivia', date: '2021-04-04', total_cases: 2 }));
    expect(put.status).toBe(200);
    const updated = await instantBetweenWrites();
    expect((await t.http.delete(`${path}/${id}`).set(t.auth())).status).toBe(200);
    const asOf = async (instant: string) => {
      const res = await get(`${path}/${id}?as_of=${q(instant)}`);
      return { status: res.status, body: res.body as unknown };
    };
    const record = (total: number) => ({
      id,
      ...recordBody({ country: 'Bolivia', date: '2021-04-04', total_cases: total }),
    });
    expect(await asOf(before)).toEqual({
      status: 404,
      body: { error: 'Enregistrement introuvable.' },
    });
    expect(await asOf(created)).toEqual({ status: 200, body: record(1) });
    expect(await asOf(updated)).toEqual({ status: 200, body: record(2) });
    expect((await get(`${path}/${id}`)).status).toBe(404);
    const bad = await get(`${path}/${id}?as_of=yesterday`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'Paramètres de requête invalides.',
      details: [
        'as_of : doit être une date AAAA-MM-JJ ou une date-heure ISO 8601 avec fuseau (2026-11-26T10:00:00Z)',
      ],
    });
  });
});
