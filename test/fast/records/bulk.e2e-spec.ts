import { TestApp, bootTestApp } from '../../support/test-app';
import { FIGURE_MAX } from '@app/diseases';

const record = (country: string, date: string, total_cases = 10) => ({
  date,
  country,
  total_cases,
  new_cases: 1.5,
  total_deaths: 1,
  new_deaths: -1,
});

describe.each(['covid', 'mpox'])('POST /api/%s/data/bulk', (key) => {
  let t: TestApp;
  const url = `/api/${key}/data/bulk`;
  const all = async () =>
    (await t.http.get(`/api/${key}/data`).query({ limit: 100000 }).set(t.auth())).body as Record<
      string,
      unknown
    >[];

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('inserts new records and updates existing ones (country ignoring case), in one go', async () => {
    const created = await t.http
      .post(`/api/${key}/data`)
      .set(t.auth())
      .send(record('Atlantis', '2021-03-01'));
    expect(created.status).toBe(201);

    const res = await t.http
      .post(url)
      .set(t.auth())
      .send([
        record(' atlantis ', '2021-03-01', 99),
        record('Atlantis', '2021-03-02'),
        { ...record('Lemuria', '2021-03-01'), total_recovered: 5 },
      ]);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ success: true, inserted: 2, updated: 1 });

    const rows = await all();
    expect(rows.map((r) => [r.date, r.country, r.total_cases])).toEqual([
      ['2021-03-02', 'Atlantis', 10],
      ['2021-03-01', 'Lemuria', 10],
      ['2021-03-01', 'atlantis', 99],
    ]);
    expect(rows[2].id).toBe(created.body.id);
  });

  it('counts a repeated country and date within one batch as an update (the last one wins)', async () => {
    const res = await t.http
      .post(url)
      .set(t.auth())
      .send([record('Lyonesse', '2021-04-01', 1), record('LYONESSE', '2021-04-01', 2)]);
    expect(res.body).toEqual({ success: true, inserted: 1, updated: 1 });
    const mu = (await all()).filter((r) => r.date === '2021-04-01');
    expect(mu.map((r) => [r.country, r.total_cases])).toEqual([['LYONESSE', 2]]);
  });

  it('writes nothing when one record is invalid, and names each problem with its index', async () => {
    const before = await all();
    const res = await t.http
      .post(url)
      .set(t.auth())
      .send([
        record('Germany', '2021-05-01'),
        { ...record('Germany', '2021-02-30'), total_cases: '12' },
        record('Germany', '2021-05-03'),
        { ...record('Germany', '2021-05-04'), colour: 'red' },
        'nope',
      ]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Données invalides.',
      details: [
        "[1] date : 2021-02-30 n'est pas une date du calendrier",
        `[1] total_cases : doit être un entier de 0 à ${FIGURE_MAX}`,
        '[3] colour : champ inconnu',
        '[4] doit être un objet JSON',
      ],
    });
    expect(await all()).toEqual(before);
  });

  it('writes concurrent batches over the same records, each whole (MySQL deadlocks are retried)', async () => {
    const records = Array.from({ length: 180 }, (_, i) =>
      record(`Deadlock ${i % 30}`, `2020-0${1 + (i % 6)}-1${Math.floor(i / 30)}`, i),
    );
    const shuffled = () => [...records].sort(() => Math.random() - 0.5);
    const before = (await all()).length;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => t.http.post(url).set(t.auth()).send(shuffled())),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    }
    expect((await all()).length).toBe(before + records.length);
  });

  it('answers 200 with zero counts for an empty array', async () => {
    const res = await t.http.post(url).set(t.auth()).send([]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, inserted: 0, updated: 0 });
  });

  it('refuses a body that is not an array', async () => {
    const res = await t.http.post(url).set(t.auth()).send(record('France', '2021-03-01'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Données invalides.',
      details: ["le corps doit être un tableau JSON d'enregistrements"],
    });
  });

  it('accepts 10,000 records and refuses 10,001 with 413', async () => {
    const batch = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        record(
          `Bulkland ${i % 100}`,
          `2020-${String(1 + (Math.floor(i / 100) % 12)).padStart(2, '0')}-${String(1 + Math.floor(i / 1200)).padStart(2, '0')}`,
        ),
      );
    const tooMany = await t.http.post(url).set(t.auth()).send(batch(10_001));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toEqual({
      error: 'Lot trop volumineux : 10000 enregistrements au plus par requête.',
    });
    const max = await t.http.post(url).set(t.auth()).send(batch(10_000));
    expect(max.status).toBe(200);
    expect(max.body).toEqual({ success: true, inserted: 10_000, updated: 0 });
  });

  it('needs a token', async () => {
    const res = await t.http.post(url).send([]);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Accès refusé. Aucun jeton fourni.' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('is not captured by the /data/:id routes', async () => {
    const res = await t.http.put(url).set(t.auth()).send(record('France', '2021-03-01'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Paramètre de chemin invalide.');
  });
});
