import { DISEASE_KEYS, recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

describe.each(DISEASE_KEYS)('%s: concurrent creation of one country and date', (key) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('20 concurrent POSTs: exactly one 201, nineteen 409, one row', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.http
          .post(`/api/${key}/data`)
          .set(t.auth(i % 2 ? 'alice' : 'bob'))
          .send(recordBody({ country: i % 3 ? 'Brazil' : ' BRAZIL ', date: '2022-01-01' })),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    responses
      .filter((r) => r.status === 409)
      .forEach((r) =>
        expect(r.body).toEqual({
          error: 'Un enregistrement existe déjà pour ce pays et cette date.',
        }),
      );
    const [{ count }] = await t.dataSource.query<{ count: number }[]>(
      `SELECT COUNT(*) AS count FROM ${key}_data WHERE country_key = 'brazil'`,
    );
    expect(Number(count)).toBe(1);
  });
});
