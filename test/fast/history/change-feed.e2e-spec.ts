/**
 * The change feed, `GET /<key>/changes`: every change once, in the order the changes were
 * committed, page by page through opaque cursors, whatever is written while it is read. On MySQL,
 * a transaction that took its revision ids before a shorter one but commits after it still comes
 * after it in the feed (a plain revision-id cursor would skip it for ever).
 */
import { COVID_DISEASE } from '@app/diseases';
import { RevisionRepository, SqlRunner } from '@app/database';
import { DISEASE_KEYS, recordBody } from '../../support/fixtures';
import { DEFAULT_API_TOKENS, TOKENS, TestApp, bootTestApp } from '../../support/test-app';
import { TEST_DB_TYPE } from '../../support/test-database';
import { onlyOn } from '../../support/database-only';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const WRITER = 'writer-token-0123456789abcdef';
const API_TOKENS = `${DEFAULT_API_TOKENS},writer:${WRITER}:scopes=covid:write+mpox:write`;

interface Change {
  cursor: string;
  at: string;
  actor: string;
  change: string;
  id: number;
  record: Record<string, unknown> | null;
}
interface Page {
  changes: Change[];
  next: string | null;
}

describe.each(DISEASE_KEYS)('change feed of %s', (key) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ API_TOKENS });
  });
  afterAll(() => t.close());

  const feed = async (query = '', token = TOKENS.reader) =>
    t.http.get(`/api/${key}/changes${query}`).set('Authorization', `Bearer ${token}`);
  const page = async (query = ''): Promise<Page> => {
    const res = await feed(query);
    expect(res.status).toBe(200);
    return res.body as Page;
  };
  /** The feed from `after` (or the start) to its end, `limit` changes per page. */
  const readAll = async (limit: number, after?: string) => {
    const changes: Change[] = [];
    let cursor = after;
    for (;;) {
      const p = await page(`?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      expect(p.changes.length).toBeLessThanOrEqual(limit);
      if (p.next === null) {
        expect(p.changes).toEqual([]);
        return { changes, last: cursor };
      }
      expect(p.next).toBe(p.changes[p.changes.length - 1].cursor);
      changes.push(...p.changes);
      cursor = p.next;
    }
  };
  const post = async (body: Record<string, unknown>, client: 'alice' | 'bob' = 'alice') => {
    const res = await t.http.post(`/api/${key}/data`).set(t.auth(client)).send(body);
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  };
  const record = (id: number, body: Record<string, unknown>) => ({ id, ...body });

  it('shows each kind of write once, in order, with the exact body', async () => {
    const start = (await readAll(1000)).last;
    const a = recordBody({ country: 'Chile', date: '2021-05-01', total_cases: 10 });
    const id = await post(a);
    const a2 = { ...a, total_cases: 12 };
    expect((await t.http.put(`/api/${key}/data/${id}`).set(t.auth('bob')).send(a2)).status).toBe(
      200,
    );
    // Nothing changed: no revision, nothing in the feed.
    expect((await t.http.put(`/api/${key}/data/${id}`).set(t.auth('bob')).send(a2)).status).toBe(
      200,
    );
    expect((await t.http.delete(`/api/${key}/data/${id}`).set(t.auth())).status).toBe(200);
    const b = recordBody({ country: 'Peru', date: '2021-05-02' });
    const c = recordBody({ country: 'Peru', date: '2021-05-03' });
    const bulk = await t.http.post(`/api/${key}/data/bulk`).set(t.auth('bob')).send([b, c]);
    expect(bulk.body).toEqual({ success: true, inserted: 2, updated: 0 });
    const list = await t.http.get(`/api/${key}/data?country=Peru`).set(t.auth());
    const [idC, idB] = (list.body as { id: number }[]).map((r) => r.id);

    const res = await feed(start ? `?after=${start}` : '');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const body = res.body as Page;
    const change = (actor: string, kind: string, recordId: number, values: unknown) => ({
      cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      at: expect.stringMatching(ISO_MS),
      actor,
      change: kind,
      id: recordId,
      record: values,
    });
    expect(body).toEqual({
      changes: [
        change('alice', 'create', id, record(id, a)),
        change('bob', 'update', id, record(id, a2)),
        change('alice', 'delete', id, null),
        change('bob', 'create', idB, record(idB, b)),
        change('bob', 'create', idC, record(idC, c)),
      ],
      next: body.changes[4].cursor,
    });
    expect(Object.keys(body)).toEqual(['changes', 'next']);
    expect(Object.keys(body.changes[0])).toEqual([
      'cursor',
      'at',
      'actor',
      'change',
      'id',
      'record',
    ]);
    expect(new Set(body.changes.map((ch) => ch.cursor)).size).toBe(5);
    const link = `</api/${key}/changes?after=${body.next}>; rel="next"`;
    expect(res.headers.link).toBe(link);
    // From the last cursor: nothing yet, no next, no Link.
    const end = await feed(`?after=${body.next}`);
    expect(end.body).toEqual({ changes: [], next: null });
    expect(end.headers.link).toBeUndefined();
  });

  it('read page by page, equals the whole feed and the history table', async () => {
    for (let i = 0; i < 5; i++) {
      await post(recordBody({ country: 'Pageland', date: `2021-07-0${i + 1}` }));
    }
    await t.http
      .post(`/api/${key}/data/bulk`)
      .set(t.auth())
      .send(
        [1, 2, 3, 4, 5, 6, 7].map((d) =>
          recordBody({ country: 'Bulkpage', date: `2021-08-0${d}` }),
        ),
      );
    const whole = await page('?limit=10000');
    const paged = await readAll(3);
    expect(paged.changes).toEqual(whole.changes);
    const [{ count }] = await t.dataSource.query<{ count: number }[]>(
      `SELECT COUNT(*) AS count FROM ${key}_revisions`,
    );
    expect(whole.changes).toHaveLength(Number(count));
    // Each revision once: (record, change, values) of the table, in its order on SQLite.
    const rows = await t.dataSource.query<{ record_id: number; kind: string }[]>(
      `SELECT record_id, kind FROM ${key}_revisions ORDER BY id`,
    );
    const fromTable = rows.map((r) => `${Number(r.record_id)} ${r.kind}`);
    const fromFeed = whole.changes.map((ch) => `${ch.id} ${ch.change}`);
    expect([...fromFeed].sort()).toEqual([...fromTable].sort());
    if (TEST_DB_TYPE === 'sqlite') expect(fromFeed).toEqual(fromTable);
  });

  it('gives every change written while it is read, later, none lost or repeated', async () => {
    const start = (await readAll(1000)).last;
    const written: number[] = [];
    for (let i = 1; i <= 4; i++) {
      written.push(await post(recordBody({ country: 'Whileland', date: `2021-09-0${i}` })));
    }
    const seen: Change[] = [];
    let cursor = start;
    for (let round = 0; ; round++) {
      const p = await page(`?limit=2${cursor ? `&after=${cursor}` : ''}`);
      if (p.next === null) break;
      seen.push(...p.changes);
      cursor = p.next;
      // Writes between pages: a creation, and an update of a record already read.
      if (round < 3) {
        written.push(
          await post(recordBody({ country: 'Whileland', date: `2021-10-0${round + 1}` })),
        );
        const updated = await t.http
          .put(`/api/${key}/data/${written[0]}`)
          .set(t.auth())
          .send(recordBody({ country: 'Whileland', date: '2021-09-01', total_cases: round + 1 }));
        expect(updated.status).toBe(200);
      }
    }
    expect(seen.map((ch) => [ch.id, ch.change])).toEqual([
      ...written.slice(0, 4).map((id) => [id, 'create']),
      [written[4], 'create'],
      [written[0], 'update'],
      [written[5], 'create'],
      [written[0], 'update'],
      [written[6], 'create'],
      [written[0], 'update'],
    ]);
    expect(seen.map((ch) => (ch.record as { total_cases: number }).total_cases).slice(-1)).toEqual([
      3,
    ]);
  });

  it('starts `since` a time: the first transaction committed then or later', async () => {
    await post(recordBody({ country: 'Sinceland', date: '2021-11-01' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = await post(recordBody({ country: 'Sinceland', date: '2021-11-02' }), 'bob');
    const body = await page(`?since=${since}`);
    expect(body.changes.map((ch) => [ch.id, ch.actor])).toEqual([[later, 'bob']]);
    // A date is the start of that day (UTC): today's changes and more.
    const today = await page(`?since=${since.slice(0, 10)}&limit=10000`);
    expect(today.changes.length).toBeGreaterThan(2);
    expect(today.changes[today.changes.length - 1].id).toBe(later);
    expect(await page(`?since=${encodeURIComponent(since.replace('Z', '+00:00'))}`)).toEqual(body);
    // Nothing since now: an empty page.
    expect(await page(`?since=${new Date().toISOString()}`)).toEqual({ changes: [], next: null });
  });

  it('answers CSV and NDJSON, one change per row or line, next in the Link header of a page', async () => {
    const start = (await readAll(1000)).last;
    const body = recordBody({ country: 'Commaland, North', date: '2021-12-01' });
    const id = await post(body);
    expect((await t.http.delete(`/api/${key}/data/${id}`).set(t.auth())).status).toBe(200);
    const json = await page(`?after=${start}`);
    const [created, deleted] = json.changes;

    const csv = await feed(`?after=${start}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      'cursor,at,actor,change,id,date,country,total_cases,new_cases,total_deaths,new_deaths\r\n' +
        `${created.cursor},${created.at},alice,create,${id},2021-12-01,"Commaland, North",3800000,20000,86000,250\r\n` +
        `${deleted.cursor},${deleted.at},alice,delete,${id},,,,,,\r\n`,
    );
    // Without limit a download: the whole feed from there, each row with its cursor, no Link.
    expect(csv.headers.link).toBeUndefined();
    const paged = await feed(`?after=${start}&format=csv&limit=2`);
    expect(paged.text).toBe(csv.text);
    expect(paged.headers.link).toBe(
      `</api/${key}/changes?limit=2&format=csv&after=${deleted.cursor}>; rel="next"`,
    );

    const ndjson = await t.http
      .get(`/api/${key}/changes?after=${start}&limit=1`)
      .set('Authorization', `Bearer ${TOKENS.reader}`)
      .set('Accept', 'application/x-ndjson');
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(ndjson.text).toBe(`${JSON.stringify(created)}\n`);
    expect(ndjson.headers.link).toBe(
      `</api/${key}/changes?limit=1&after=${created.cursor}>; rel="next"`,
    );
  });

  it.each([
    ['after=abc', 'after : doit être un curseur reçu dans l\'en-tête Link (rel="next")'],
    [
      `after=${Buffer.from('1.2.3').toString('base64url')}`,
      'after : doit être un curseur reçu dans l\'en-tête Link (rel="next")',
    ],
    [
      `after=${Buffer.from('0.5').toString('base64url')}`,
      'after : doit être un curseur reçu dans l\'en-tête Link (rel="next")',
    ],
    [
      'since=yesterday',
      'since : doit être une date AAAA-MM-JJ ou une date-heure ISO 8601 avec fuseau (2026-11-26T10:00:00Z)',
    ],
    [
      'since=2021-02-30',
      'since : doit être une date AAAA-MM-JJ ou une date-heure ISO 8601 avec fuseau (2026-11-26T10:00:00Z)',
    ],
    [
      'since=2021-01-01T10:00:00',
      'since : doit être une date AAAA-MM-JJ ou une date-heure ISO 8601 avec fuseau (2026-11-26T10:00:00Z)',
    ],
    ['since=2999-01-01', 'since : ne doit pas être dans le futur'],
    [
      `after=${Buffer.from('1.1').toString('base64url')}&since=2021-01-01`,
      'since : ne peut pas être combiné avec after',
    ],
    ['limit=0', 'limit : doit être un entier de 1 à 10000'],
    ['limit=10001', 'limit : doit être un entier de 1 à 10000'],
    ['limit=1.5', 'limit : doit être un entier de 1 à 10000'],
    ['limit=abc', 'limit : doit être un entier de 1 à 10000'],
    ['format=xml', 'format : doit valoir json, csv ou ndjson'],
  ])('refuses %s (400 naming the parameter)', async (query, detail) => {
    const res = await feed(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Paramètres de requête invalides.', details: [detail] });
  });

  it('needs a token (401) with the read scope (403)', async () => {
    expect((await t.http.get(`/api/${key}/changes`)).status).toBe(401);
    const forbidden = await feed('', WRITER);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: 'Ce jeton ne permet pas cette opération.' });
    expect((await feed('?limit=10000')).status).toBe(200);
  });
});

describe('change feed: transactions that commit out of their id order', () => {
  const itMysql = onlyOn('mysql').it;
  let t: TestApp;
  let revisions: RevisionRepository;
  beforeAll(async () => {
    t = await bootTestApp();
    revisions = new RevisionRepository(new SqlRunner(t.dataSource), COVID_DISEASE);
  });
  afterAll(() => t.close());

  const page = async (query: string): Promise<Page> => {
    const res = await t.http.get(`/api/covid/changes${query}`).set(t.auth());
    expect(res.status).toBe(200);
    return res.body as Page;
  };
  const post = async (country: string) => {
    const res = await t.http
      .post('/api/covid/data')
      .set(t.auth())
      .send(recordBody({ country, date: '2022-01-01' }));
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  };
  const revisionIds = async (actor: string) =>
    (
      await t.dataSource.query<{ id: number }[]>(
        'SELECT id FROM covid_revisions WHERE actor = ? ORDER BY id',
        [actor],
      )
    ).map((row) => Number(row.id));
  /** A transaction of its own connection that appends two revisions now and commits later. */
  const longTransaction = async (actor: string) => {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    // As every writer of records: its closing statements read the history without locks.
    await runner.startTransaction('READ COMMITTED');
    const changes = revisions.changeSet({ actor });
    const values = { ...recordBody({ country: 'Longland' }), date: '2022-02-01' } as never;
    await changes.append(runner.manager, [
      { recordId: 900001, kind: 'create', values },
      { recordId: 900002, kind: 'create', values },
    ]);
    return { runner, changes };
  };

  itMysql('gives a long transaction that commits after a short one, after it', async () => {
    const start = (await page('?limit=10000')).next;
    const long = await longTransaction('long-1');
    const short = await post('Shortland');
    const first = await page(start ? `?after=${start}` : '');
    expect(first.changes.map((ch) => ch.id)).toEqual([short]);
    await long.changes.seal(long.runner.manager);
    await long.runner.commitTransaction();
    await long.runner.release();

    // The long transaction's revisions took lower ids than the short one's: a cursor on the
    // revision id (`id > last id read`) would never give them.
    const [longIds, shortIds] = [await revisionIds('long-1'), await revisionIds('alice')];
    expect(Math.max(...longIds)).toBeLessThan(Math.max(...shortIds));

    const then = await page(`?after=${first.next}`);
    expect(then.changes.map((ch) => [ch.id, ch.actor])).toEqual([
      [900001, 'long-1'],
      [900002, 'long-1'],
    ]);
  });

  itMysql(
    'stops before a commit still on its way, and passes a rolled-back one in time',
    async () => {
      const start = (await page('?limit=10000')).next;
      // Sealed (its place in the order taken) but not committed yet.
      const sealed = await longTransaction('long-2');
      await sealed.changes.seal(sealed.runner.manager);
      const short = await post('Shortland 2');
      expect(await page(`?after=${start}`)).toEqual({ changes: [], next: null });
      await sealed.runner.commitTransaction();
      await sealed.runner.release();
      const both = await page(`?after=${start}`);
      expect(both.changes.map((ch) => ch.id)).toEqual([900001, 900002, short]);

      // Sealed, then rolled back: a gap for ever, passed once the commit after it is old enough.
      const rolledBack = await longTransaction('long-3');
      await rolledBack.changes.seal(rolledBack.runner.manager);
      const after = await post('Shortland 3');
      await rolledBack.runner.rollbackTransaction();
      await rolledBack.runner.release();
      expect(await page(`?after=${both.next}`)).toEqual({ changes: [], next: null });
      await t.dataSource.query(
        'UPDATE covid_revision_commits SET at = at - 60000 WHERE seq = (SELECT m FROM (SELECT MAX(seq) AS m FROM covid_revision_commits) x)',
      );
      expect((await page(`?after=${both.next}`)).changes.map((ch) => ch.id)).toEqual([after]);
    },
  );

  it('gives the revisions that predate the feed as its first transaction', async () => {
    const { dataSource } = t;
    const names = dataSource.migrations.map((m) => m.name);
    for (let i = names.length - 1; names[i] !== 'CreateRevisions1764900000000'; i--) {
      await dataSource.undoLastMigration({ transaction: 'all' });
    }
    await dataSource.query('DELETE FROM mpox_revisions');
    await dataSource.query(
      `INSERT INTO mpox_revisions (record_id, at, actor, request_id, kind, date, country, country_key,
         total_cases, new_cases, total_deaths, new_deaths)
       VALUES (7, 1700000000000, 'old', NULL, 'create', '2022-07-01', 'Spain', 'spain', 5, 5, 0, 0),
              (7, 1700000000001, 'old', NULL, 'delete', NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
    );
    await dataSource.runMigrations({ transaction: 'all' });
    const body = (await t.http.get('/api/mpox/changes').set(t.auth())).body as Page;
    expect(body.changes.map((ch) => [ch.id, ch.change, ch.at])).toEqual([
      [7, 'create', '2023-11-14T22:13:20.000Z'],
      [7, 'delete', '2023-11-14T22:13:20.001Z'],
    ]);
    const id = await (async () => {
      const res = await t.http
        .post('/api/mpox/data')
        .set(t.auth())
        .send(recordBody({ country: 'Spain', date: '2022-07-09' }));
      return (res.body as { id: number }).id;
    })();
    const next = (await t.http.get(`/api/mpox/changes?after=${body.next}`).set(t.auth()))
      .body as Page;
    expect(next.changes.map((ch) => [ch.id, ch.change])).toEqual([[id, 'create']]);
  });
});
