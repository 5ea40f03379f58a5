import { addDays, todayUtc } from '@app/common';
import { FIGURE_MAX } from '@app/diseases';
import { RECORD_KEYS, DISEASE_KEYS, recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

describe.each(DISEASE_KEYS)('%s records: create, replace, delete', (series) => {
  let t: TestApp;
  const path = `/api/${series}/data`;
  beforeAll(async () => {
    t = await bootTestApp({ BODY_LIMIT: '2kb' });
  });
  afterAll(() => t.close());

  async function rows(): Promise<Record<string, unknown>[]> {
    const res = await t.http.get(`${path}?limit=1000`).set(t.auth());
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>[];
  }

  async function create(body: Record<string, unknown>): Promise<number> {
    const res = await t.http.post(path).set(t.auth()).send(body);
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  }

  async function expectRefused(
    send: () => Promise<{ status: number; body: unknown; headers: Record<string, string> }>,
    status: number,
    body: unknown,
  ): Promise<void> {
    const before = await rows();
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(await rows()).toEqual(before);
  }

  const invalid = (...details: string[]) => ({ error: 'Données invalides.', details });

  it('creates a record: 201, the acknowledgement with the new id, stored trimmed with the seven fields', async () => {
    const res = await t.http
      .post(path)
      .set(t.auth())
      .send(
        recordBody({
          country: '  Côte d’Azur ',
          new_cases: -3.5,
          total_cases: FIGURE_MAX,
        }),
      );
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      success: true,
      message: 'Données ajoutées avec succès.',
      id: expect.any(Number),
    });
    const stored = (await rows()).find((r) => r.id === res.body.id)!;
    expect(Object.keys(stored)).toEqual(RECORD_KEYS);
    expect(stored).toEqual({
      id: res.body.id,
      date: '2021-03-01',
      country: 'Côte d’Azur',
      total_cases: FIGURE_MAX,
      new_cases: -3.5,
      total_deaths: 86000,
      new_deaths: 250,
    });
  });

  it('accepts and ignores the legacy fields active_cases, total_recovered, daily_recovered', async () => {
    const id = await create(
      recordBody({
        date: '2021-03-02',
        active_cases: 5,
        total_recovered: 'x',
        daily_recovered: null,
      } as never),
    );
    const stored = (await rows()).find((r) => r.id === id)!;
    expect(Object.keys(stored)).toEqual(RECORD_KEYS);
  });

  it('refuses a duplicate country and date, ignoring case and surrounding blanks (409)', async () => {
    await create(recordBody({ date: '2021-03-03', country: 'Germany' }));
    for (const country of ['Germany', ' germany ', 'GERMANY']) {
      await expectRefused(
        () =>
          t.http
            .post(path)
            .set(t.auth())
            .send(recordBody({ date: '2021-03-03', country })),
        409,
        { error: 'Un enregistrement existe déjà pour ce pays et cette date.' },
      );
    }
  });

  it('stores 100 characters that normalisation triples (the matching key holds 300)', async () => {
    // U+FB2C and U+1D160 are each three characters in NFC: the key is 300 characters long.
    for (const [i, country] of ['\uFB2C'.repeat(100), '\u{1D160}'.repeat(100)].entries()) {
      const date = `2021-03-0${i + 5}`;
      const id = await create(recordBody({ date, country }));
      expect((await rows()).find((r) => r.id === id)?.country).toBe(country);
      await expectRefused(
        () =>
          t.http
            .post(path)
            .set(t.auth())
            .send(recordBody({ date, country: ` ${country} ` })),
        409,
        { error: 'Un enregistrement existe déjà pour ce pays et cette date.' },
      );
    }
  });

  it('replaces a record with PUT (200) and answers 404 for an unknown id', async () => {
    const id = await create(recordBody({ date: '2021-03-04', country: 'Italy' }));
    const replacement = recordBody({
      date: '2021-03-05',
      country: 'Italia',
      total_cases: 1,
      new_cases: 0.25,
    });
    const res = await t.http.put(`${path}/${id}`).set(t.auth()).send(replacement);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Données mises à jour avec succès.' });
    expect((await rows()).find((r) => r.id === id)).toEqual({ id, ...replacement });

    const same = await t.http.put(`${path}/${id}`).set(t.auth()).send(replacement);
    expect(same.status).toBe(200);

    await expectRefused(() => t.http.put(`${path}/999999`).set(t.auth()).send(replacement), 404, {
      error: 'Enregistrement introuvable.',
    });
  });

  it('refuses a PUT that would collide with another record (409)', async () => {
    await create(recordBody({ date: '2021-03-06', country: 'Spain' }));
    const id = await create(recordBody({ date: '2021-03-07', country: 'Spain' }));
    await expectRefused(
      () =>
        t.http
          .put(`${path}/${id}`)
          .set(t.auth())
          .send(recordBody({ date: '2021-03-06', country: 'SPAIN ' })),
      409,
      { error: 'Un enregistrement existe déjà pour ce pays et cette date.' },
    );
  });

  it('deletes a record (200), then answers 404 for it', async () => {
    const id = await create(recordBody({ date: '2021-03-08', country: 'Portugal' }));
    const res = await t.http.delete(`${path}/${id}`).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Données supprimées avec succès.' });
    expect((await rows()).some((r) => r.id === id)).toBe(false);
    const again = await t.http.delete(`${path}/${id}`).set(t.auth());
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Enregistrement introuvable.' });
  });

  it.each(['abc', '0', '-1', '1.5', '1e3', '99999999999999999999'])(
    'refuses the id %s (400)',
    async (id) => {
      await expectRefused(() => t.http.delete(`${path}/${id}`).set(t.auth()), 400, {
        error: 'Paramètre de chemin invalide.',
        details: ['id : doit être un entier strictement positif'],
      });
      const put = await t.http.put(`${path}/${id}`).set(t.auth()).send(recordBody());
      expect(put.status).toBe(400);
    },
  );

  const tomorrow = addDays(todayUtc(), 1);
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['a missing field', { country: undefined }, ['country : champ obligatoire']],
    [
      'an impossible date',
      { date: '2021-02-30' },
      ["date : 2021-02-30 n'est pas une date du calendrier"],
    ],
    [
      'a badly written date',
      { date: '01/03/2021' },
      ['date : doit être une date au format AAAA-MM-JJ'],
    ],
    [
      'a date with time',
      { date: '2021-03-01T00:00:00Z' },
      ['date : doit être une date au format AAAA-MM-JJ'],
    ],
    [
      'a date before 1900',
      { date: '1899-12-31' },
      ['date : doit être comprise entre 1900-01-01 et demain (UTC)'],
    ],
    [
      'a date after tomorrow',
      { date: addDays(tomorrow, 1) },
      ['date : doit être comprise entre 1900-01-01 et demain (UTC)'],
    ],
    ['a blank country', { country: '   ' }, ['country : doit contenir de 1 à 100 caractères']],
    [
      'a 101-character country',
      { country: 'x'.repeat(101) },
      ['country : doit contenir de 1 à 100 caractères'],
    ],
    [
      'a control character',
      { country: 'Fra\u0000nce' },
      ['country : ne doit pas contenir de caractères de contrôle'],
    ],
    [
      'half of a character (a lone surrogate, escaped in JSON)',
      { country: 'Fr\ud800ance' },
      ['country : ne doit pas contenir de demi-caractère Unicode isolé'],
    ],
    ['a number as country', { country: 12 }, ['country : doit être une chaîne de caractères']],
    [
      'a string total',
      { total_cases: '12' },
      ['total_cases : doit être un entier de 0 à 1000000000000'],
    ],
    [
      'a decimal total',
      { total_deaths: 1.5 },
      ['total_deaths : doit être un entier de 0 à 1000000000000'],
    ],
    [
      'a negative total',
      { total_cases: -1 },
      ['total_cases : doit être un entier de 0 à 1000000000000'],
    ],
    [
      'a total above 10^12',
      { total_cases: 1e12 + 1 },
      ['total_cases : doit être un entier de 0 à 1000000000000'],
    ],
    ['a string new_cases', { new_cases: '1' }, ['new_cases : doit être un nombre']],
    ['a null new_deaths', { new_deaths: null }, ['new_deaths : doit être un nombre']],
    ['a boolean', { new_deaths: true }, ['new_deaths : doit être un nombre']],
    [
      'an object value',
      { new_cases: { a: 1 } },
      ['new_cases : doit être une valeur simple (nombre ou chaîne)'],
    ],
    ['an unknown field', { population: 5 }, ['population : champ inconnu']],
  ];

  it.each(cases)('refuses %s with 400 and the problem named', async (_name, overrides, details) => {
    await expectRefused(
      () => t.http.post(path).set(t.auth()).send(recordBody(overrides)),
      400,
      invalid(...details),
    );
  });

  it('accepts tomorrow (UTC) and 1900-01-01', async () => {
    await create(recordBody({ date: tomorrow, country: 'Tomorrowland' }));
    await create(recordBody({ date: '1900-01-01', country: 'Tomorrowland' }));
  });

  it('lists every problem of a body, one line each', async () => {
    const res = await t.http.post(path).set(t.auth()).send({ date: 'x', extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      invalid(
        'extra : champ inconnu',
        'date : doit être une date au format AAAA-MM-JJ',
        'country : champ obligatoire',
        'total_cases : champ obligatoire',
        'new_cases : champ obligatoire',
        'total_deaths : champ obligatoire',
        'new_deaths : champ obligatoire',
      ),
    );
  });

  it('names a missing field even when an unknown field looks like "field : ..."', async () => {
    const body = { ...recordBody({ date: undefined }), 'date : 2021-03-01': 1 };
    const res = await t.http.post(path).set(t.auth()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      invalid('date : 2021-03-01 : champ inconnu', 'date : champ obligatoire'),
    );
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"text"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('refuses %s as body (400)', async (_name, raw) => {
    await expectRefused(
      () => t.http.post(path).set(t.auth()).set('Content-Type', 'application/json').send(raw),
      400,
      invalid('le corps doit être un objet JSON'),
    );
  });

  it('refuses malformed JSON (400)', async () => {
    await expectRefused(
      () =>
        t.http.post(path).set(t.auth()).set('Content-Type', 'application/json').send('{"date": '),
      400,
      {
        error: 'Corps de requête JSON invalide.',
        details: ['le corps doit être un document JSON valide'],
      },
    );
  });

  it('refuses an empty JSON body (400) and a missing body (400)', async () => {
    await expectRefused(
      () => t.http.post(path).set(t.auth()).set('Content-Type', 'application/json').send(''),
      400,
      { error: 'Corps de requête JSON invalide.', details: ['le corps de la requête est vide'] },
    );
    await expectRefused(
      () => t.http.post(path).set(t.auth()),
      400,
      invalid('le corps doit être un objet JSON'),
    );
  });

  it('refuses a body that is not JSON (415), a JSON text sent as text/plain included', async () => {
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'a=1'],
      ['text/plain', JSON.stringify(recordBody({}))],
    ]) {
      await expectRefused(
        () => t.http.post(path).set(t.auth()).set('Content-Type', type).send(body),
        415,
        { error: 'Type de contenu non pris en charge : envoyez du JSON (application/json).' },
      );
    }
  });

  it('refuses a body larger than BODY_LIMIT (413)', async () => {
    await expectRefused(
      () =>
        t.http
          .post(path)
          .set(t.auth())
          .send(recordBody({ country: 'x'.repeat(3000) })),
      413,
      { error: 'Corps de requête trop volumineux.' },
    );
  });
});
