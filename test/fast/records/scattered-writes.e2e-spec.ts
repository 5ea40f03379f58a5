/**
 * One write that changes thousands of existing records far apart from one another (a partner
 * correcting a sample of a series): every statement built from their ids stays within the
 * database's limits (on SQLite, an OR chain of 1,000 id ranges was "Expression tree is too large"
 * and the bulk answered 500). Every record is changed and has its revision.
 */
import { changesSince } from '../../support/change-feed';
import { recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

const STORE = 5_000;
const CHANGED = 2_000;

interface Stored {
  id: number;
  date: string;
  country: string;
  total_cases: number;
}

/** A deterministic shuffle (the ids picked are the same at every run). */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  let seed = 7;
  for (let i = copy.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 1;
    const j = seed % (i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

describe('a bulk write of thousands of scattered updates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const all = async (): Promise<Stored[]> => {
    const res = await t.http.get('/api/covid/data').query({ limit: 100_000 }).set(t.auth());
    expect(res.status).toBe(200);
    return res.body as Stored[];
  };

  it(`updates ${CHANGED} records picked at random, none next to another, with their revisions`, async () => {
    const countries = Array.from({ length: 50 }, (_, i) => `Scatterland ${i}`);
    const store = countries.flatMap((country) =>
      Array.from({ length: STORE / countries.length }, (_, day) =>
        recordBody({
          country,
          date: new Date(Date.UTC(2021, 0, 1 + day)).toISOString().slice(0, 10),
          total_cases: 1_000 + day,
        }),
      ),
    );
    const loaded = await t.http.post('/api/covid/data/bulk').set(t.auth()).send(store);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toEqual({ success: true, inserted: STORE, updated: 0 });

    // Every other record by id, so that no two changed ids are consecutive (no id ranges).
    const byId = (await all()).sort((a, b) => a.id - b.id);
    const picked = shuffled(byId.filter((_, i) => i % 2 === 0)).slice(0, CHANGED);
    const since = new Date().toISOString();
    const res = await t.http
      .post('/api/covid/data/bulk')
      .set(t.auth('bob'))
      .send(
        picked.map((r) =>
          recordBody({ country: r.country, date: r.date, total_cases: r.total_cases + 7 }),
        ),
      );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, inserted: 0, updated: CHANGED });

    const expected = new Map(byId.map((r) => [r.id, r.total_cases]));
    for (const r of picked) expected.set(r.id, r.total_cases + 7);
    const after = await all();
    expect(after).toHaveLength(STORE);
    expect(new Map(after.map((r) => [r.id, r.total_cases]))).toEqual(expected);

    // The change feed since the write: one update by bob per record picked, nothing else.
    const changes = await changesSince(t, 'covid', since);
    expect(changes.every((c) => c.actor === 'bob' && c.change === 'update')).toBe(true);
    expect(changes.map((c) => c.id).sort((a, b) => a - b)).toEqual(
      picked.map((r) => r.id).sort((a, b) => a - b),
    );
  });

  // Few keys far apart: the stored records are read by their dates, country by country.
  it('updates a few hundred records spread over the whole store, and only those', async () => {
    const byId = (await all()).sort((a, b) => a.id - b.id);
    const picked = shuffled(byId.filter((_, i) => i % 2 === 1)).slice(0, 300);
    const res = await t.http
      .post('/api/covid/data/bulk')
      .set(t.auth())
      .send(
        picked.map((r) =>
          recordBody({ country: r.country, date: r.date, total_cases: r.total_cases + 3 }),
        ),
      );
    expect(res.body).toEqual({ success: true, inserted: 0, updated: 300 });
    const expected = new Map(byId.map((r) => [r.id, r.total_cases]));
    for (const r of picked) expected.set(r.id, r.total_cases + 3);
    expect(new Map((await all()).map((r) => [r.id, r.total_cases]))).toEqual(expected);
  });
});
