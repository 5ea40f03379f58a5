/**
 * The history of each record: every write through the API appends exactly the revision it should
 * (none for a write that changes nothing or is refused), with who made it and on which request;
 * `GET /<key>/data/:id/history` answers them oldest first. Records that existed when the history
 * began have one baseline revision each.
 */
import { DISEASE_KEYS, recordBody } from '../../support/fixtures';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Revision {
  revision: number;
  at: string;
  actor: string;
  change: string;
  record: Record<string, unknown> | null;
}

describe.each(DISEASE_KEYS)('history of %s records', (key) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const history = async (id: number, token = TOKENS.reader) => {
    const res = await t.http
      .get(`/api/${key}/data/${id}/history`)
      .set('Authorization', `Bearer ${token}`);
    return res;
  };
  /** Every revision row of the table, for counting what a write appended. */
  const revisionRows = () =>
    t.dataSource.query<{ record_id: number; actor: string; request_id: string | null }[]>(
      `SELECT record_id, actor, request_id FROM ${key}_revisions ORDER BY id`,
    );

  it('appends create, update and delete revisions with the client and request of each', async () => {
    const started = Date.now();
    const created = await t.http
      .post(`/api/${key}/data`)
      .set(t.auth('alice'))
      .set('X-Request-Id', 'history-create')
      .send(recordBody({ country: 'Chile', date: '2021-05-01', total_cases: 10 }));
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    const updated = await t.http
      .put(`/api/${key}/data/${id}`)
      .set(t.auth('bob'))
      .set('X-Request-Id', 'history-update')
      .send(recordBody({ country: 'chile ', date: '2021-05-01', total_cases: 12 }));
    expect(updated.status).toBe(200);
    const removed = await t.http
      .delete(`/api/${key}/data/${id}`)
      .set(t.auth('alice'))
      .set('X-Request-Id', 'history-delete');
    expect(removed.status).toBe(200);

    const res = await history(id);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const revisions = res.body as Revision[];
    const record = (total_cases: number) => ({
      id,
      ...recordBody({ country: 'Chile', date: '2021-05-01', total_cases }),
    });
    expect(revisions).toEqual([
      {
        revision: 1,
        at: expect.stringMatching(ISO_MS),
        actor: 'alice',
        change: 'create',
        record: record(10),
      },
      {
        revision: 2,
        at: expect.stringMatching(ISO_MS),
        actor: 'bob',
        change: 'update',
        record: record(12),
      },
      {
        revision: 3,
        at: expect.stringMatching(ISO_MS),
        actor: 'alice',
        change: 'delete',
        record: null,
      },
    ]);
    // Keys in this order, times in order and within the test.
    expect(Object.keys(revisions[0])).toEqual(['revision', 'at', 'actor', 'change', 'record']);
    const times = revisions.map((r) => Date.parse(r.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times[0]).toBeGreaterThanOrEqual(started);
    expect(times[2]).toBeLessThanOrEqual(Date.now());

    const rows = (await revisionRows()).filter((row) => Number(row.record_id) === id);
    expect(rows.map((row) => row.request_id)).toEqual([
      'history-create',
      'history-update',
      'history-delete',
    ]);
  });

  it('appends nothing for a write that changes nothing or is refused', async () => {
    const body = recordBody({ country: 'Peru', date: '2021-05-02' });
    const created = await t.http.post(`/api/${key}/data`).set(t.auth()).send(body);
    const { id } = created.body as { id: number };
    const before = (await revisionRows()).length;

    // The same values again (another spelling of the same country).
    const same = await t.http
      .put(`/api/${key}/data/${id}`)
      .set(t.auth())
      .send({ ...body, country: ' PERU' });
    expect(same.status).toBe(200);
    const duplicate = await t.http.post(`/api/${key}/data`).set(t.auth()).send(body);
    expect(duplicate.status).toBe(409);
    const unknown = await t.http.delete(`/api/${key}/data/987654321`).set(t.auth());
    expect(unknown.status).toBe(404);
    const forbidden = await t.http
      .delete(`/api/${key}/data/${id}`)
      .set('Authorization', `Bearer ${TOKENS.reader}`);
    expect(forbidden.status).toBe(403);
    const invalid = await t.http
      .put(`/api/${key}/data/${id}`)
      .set(t.auth())
      .send({ ...body, total_cases: -1 });
    expect(invalid.status).toBe(400);
    const unchangedBulk = await t.http.post(`/api/${key}/data/bulk`).set(t.auth()).send([body]);
    expect(unchangedBulk.body).toEqual({ success: true, inserted: 0, updated: 1 });

    expect((await revisionRows()).length).toBe(before);
    expect(((await history(id)).body as Revision[]).map((r) => r.change)).toEqual(['create']);
  });

  it('keeps no record whose revision could not be written, and writes on afterwards', async () => {
    // The commit row is a create's last statement: make it fail once the record and its revision
    // are written, then check that neither stays, nor is committed by the connection's next use.
    const commits = `${key}_revision_commits`;
    const before = (await revisionRows()).length;
    await t.dataSource.query(`ALTER TABLE ${commits} RENAME TO ${commits}_away`);
    let failed;
    try {
      failed = await t.http
        .post(`/api/${key}/data`)
        .set(t.auth())
        .send(recordBody({ country: 'Ecuador', date: '2021-05-03' }));
    } finally {
      await t.dataSource.query(`ALTER TABLE ${commits}_away RENAME TO ${commits}`);
    }
    expect(failed.status).toBe(500);
    // More writes than the pool has connections: each would commit what a failed one left open.
    for (let day = 10; day < 22; day++) {
      const res = await t.http
        .post(`/api/${key}/data`)
        .set(t.auth())
        .send(recordBody({ country: 'Bolivia', date: `2021-05-${day}` }));
      expect(res.status).toBe(201);
    }
    const ecuador = await t.http.get(`/api/${key}/data?country=Ecuador`).set(t.auth());
    expect(ecuador.body).toEqual([]);
    expect((await revisionRows()).length).toBe(before + 12);
  });

  it('appends one revision per record a bulk write creates or changes', async () => {
    const day = (date: string, total_cases: number) =>
      recordBody({ country: 'Bulkland', date, total_cases });
    const first = await t.http
      .post(`/api/${key}/data/bulk`)
      .set(t.auth('bob'))
      .send([day('2021-06-01', 1), day('2021-06-02', 2)]);
    expect(first.body).toEqual({ success: true, inserted: 2, updated: 0 });
    const before = (await revisionRows()).length;
    const second = await t.http
      .post(`/api/${key}/data/bulk`)
      .set(t.auth('alice'))
      .set('X-Request-Id', 'bulk-2')
      .send([day('2021-06-01', 1), day('2021-06-02', 5), day('2021-06-03', 3)]);
    expect(second.body).toEqual({ success: true, inserted: 1, updated: 2 });
    const appended = (await revisionRows()).slice(before);
    expect(appended).toHaveLength(2);
    expect(appended.map((row) => [row.actor, row.request_id])).toEqual([
      ['alice', 'bulk-2'],
      ['alice', 'bulk-2'],
    ]);

    const list = await t.http.get(`/api/${key}/data?country=Bulkland`).set(t.auth());
    const ids = Object.fromEntries(
      (list.body as { id: number; date: string }[]).map((r) => [r.date, r.id]),
    );
    const changes = async (date: string) =>
      ((await history(ids[date])).body as Revision[]).map((r) => [r.actor, r.change]);
    expect(await changes('2021-06-01')).toEqual([['bob', 'create']]);
    expect(await changes('2021-06-02')).toEqual([
      ['bob', 'create'],
      ['alice', 'update'],
    ]);
    expect(await changes('2021-06-03')).toEqual([['alice', 'create']]);
  });

  it('answers 404 for an id that never existed, 400 for one that cannot, 401 and 403', async () => {
    const missing = await history(987654321);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Enregistrement introuvable.' });
    const invalid = await t.http
      .get(`/api/${key}/data/abc/history`)
      .set('Authorization', `Bearer ${TOKENS.reader}`);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      error: 'Paramètre de chemin invalide.',
      details: ['id : doit être un entier strictement positif'],
    });
    expect((await t.http.get(`/api/${key}/data/1/history`)).status).toBe(401);
  });
});

describe('history: the baseline of records that existed before it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('gives each existing record one baseline revision, and nothing to later ones', async () => {
    const { dataSource } = t;
    const names = dataSource.migrations.map((m) => m.name);
    for (let i = names.length - 1; names[i] !== 'TokenScopes1764800000000'; i--) {
      await dataSource.undoLastMigration({ transaction: 'all' });
    }
    await dataSource.query(
      `INSERT INTO mpox_data (date, country, country_key, total_cases, new_cases, total_deaths, new_deaths)
       VALUES ('2022-07-01', 'Spain', 'spain', 5, 5, 0, 0), ('2022-07-02', 'Spain', 'spain', 7, 2, 1, 1)`,
    );
    const ids = (
      await dataSource.query<{ id: number }[]>('SELECT id FROM mpox_data ORDER BY id')
    ).map((row) => Number(row.id));
    await dataSource.runMigrations({ transaction: 'all' });
    expect(await dataSource.showMigrations()).toBe(false);

    const res = await t.http.get(`/api/mpox/data/${ids[1]}/history`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        revision: 1,
        at: expect.stringMatching(ISO_MS),
        actor: 'migration:baseline',
        change: 'create',
        record: {
          id: ids[1],
          date: '2022-07-02',
          country: 'Spain',
          total_cases: 7,
          new_cases: 2,
          total_deaths: 1,
          new_deaths: 1,
        },
      },
    ]);
    const [{ count }] = await dataSource.query<{ count: number }[]>(
      "SELECT COUNT(*) AS count FROM mpox_revisions WHERE actor = 'migration:baseline'",
    );
    expect(Number(count)).toBe(2);
  });
});
