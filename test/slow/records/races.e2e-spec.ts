/**
 * Racing writers: concurrent POST/PUT/DELETE on overlapping countries and dates, by several
 * clients. On MariaDB the requests really run in parallel on a pool of connections.
 *
 * The final state of every record must be the effect of its last acknowledged write. With
 * concurrency "last" is a set: an acknowledged write W is a candidate for record R when no other
 * acknowledged write on R was sent after W's acknowledgement came back (such a write certainly
 * committed after W). Send times are taken before the request starts and acknowledgement times
 * after the answer arrives, so the set can only be larger than the truth, never miss the write
 * that really committed last: the assertion cannot fail for a correct service.
 */
import { performance } from 'node:perf_hooks';
import { Response } from 'supertest';
import { RecordValues } from '@app/diseases';
import { TestApp, bootTestApp } from '../../support/test-app';
import { tableRows } from '../../support/table-snapshot';

const ROUNDS = Number(process.env.RACE_ROUNDS ?? 40);
const SEED = Number(process.env.RACE_SEED ?? Date.now() % 100_000);

type Values = RecordValues;

/** One acknowledged write and its effect on one record id (`undefined`: the record is gone). */
interface Ack {
  label: string;
  sentAt: number;
  ackedAt: number;
  effect: Values | undefined;
}

const COUNTRIES = ['Raceland', 'Racetopia', 'Spinland'];
const KEYS = COUNTRIES.map((c) => c.toLowerCase());
const DATES = ['2021-03-01', '2021-03-02'];
const CLIENTS = ['alice', 'bob'] as const;

/** Small deterministic generator, so that a failing run can be replayed with RACE_SEED. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `true` when `values` is what the API stores for the body that was sent. */
function sameRecord(row: Values | undefined, sent: Values | undefined): boolean {
  if (!row || !sent) return row === sent;
  return (
    row.date === sent.date &&
    row.country === sent.country.trim() &&
    row.total_cases === sent.total_cases &&
    row.new_cases === sent.new_cases &&
    row.total_deaths === sent.total_deaths &&
    row.new_deaths === sent.new_deaths
  );
}

describe('racing writers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  async function duplicates(): Promise<unknown[]> {
    const found: unknown[] = [];
    for (const table of ['covid_data', 'mpox_data']) {
      found.push(
        ...(await t.dataSource.query(
          `SELECT country_key, date, COUNT(*) AS n FROM ${table} GROUP BY country_key, date HAVING COUNT(*) > 1`,
        )),
      );
    }
    return found;
  }

  it.each(['covid', 'mpox'])(
    '20 concurrent POSTs of one %s country and date: one 201, nineteen 409, one row',
    async (disease) => {
      const variants = ['Samedayland', 'samedayland', ' SAMEDAYLAND ', 'SameDayLand'];
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.http
            .post(`/api/${disease}/data`)
            .set(t.auth(CLIENTS[i % 2]))
            .send({
              date: '2021-04-01',
              country: variants[i % variants.length],
              total_cases: 100 + i,
              new_cases: i,
              total_deaths: i,
              new_deaths: 0,
            }),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([201, ...Array.from({ length: 19 }, () => 409)]);
      const created = responses.find((r) => r.status === 201)!;
      expect(created.body).toEqual({
        success: true,
        message: 'Données ajoutées avec succès.',
        id: expect.any(Number) as number,
      });
      for (const refused of responses.filter((r) => r.status === 409)) {
        expect(refused.body).toEqual({
          error: 'Un enregistrement existe déjà pour ce pays et cette date.',
        });
      }
      const rows = (await tableRows(t.dataSource, `${disease}_data`)).filter(
        (row) => row.country_key === 'samedayland',
      );
      expect(rows).toHaveLength(1);
      const winner = responses.indexOf(created);
      expect(rows[0]).toMatchObject({
        id: (created.body as { id: number }).id,
        total_cases: 100 + winner,
        country: variants[winner % variants.length].trim(),
      });
    },
  );

  it('concurrent POST/PUT/DELETE on overlapping records end in the last acknowledged write', async () => {
    const rand = random(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
    const values = (country = pick(COUNTRIES), date = pick(DATES)): Values => ({
      date,
      country: pick([country, country.toLowerCase(), ` ${country.toUpperCase()} `]),
      total_cases: Math.floor(rand() * 1_000_000),
      new_cases: Math.floor(rand() * 2000) - 1000,
      total_deaths: Math.floor(rand() * 10_000),
      new_deaths: Math.round(rand() * 100) / 4,
    });
    const history = new Map<number, Ack[]>();
    const statuses = new Map<string, number>();
    let requests = 0;
    let stored = new Map<number, Values>();

    const timed = async (label: string, call: () => Promise<Response>) => {
      const sentAt = performance.now();
      const res = await call();
      const ackedAt = performance.now();
      requests++;
      const key = `${label.split(' ')[0]} ${res.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      return { res, sentAt, ackedAt };
    };
    const record = (id: number, ack: Ack) => history.set(id, [...(history.get(id) ?? []), ack]);

    const post = async (body: Values) => {
      const client = pick(CLIENTS);
      const { res, sentAt, ackedAt } = await timed(`POST ${client}`, () =>
        t.http.post('/api/covid/data').set(t.auth(client)).send(body),
      );
      expect({ op: 'POST', status: res.status }).toEqual({
        op: 'POST',
        status: res.status === 201 ? 201 : 409,
      });
      if (res.status === 201) {
        const id = (res.body as { id: number }).id;
        record(id, { label: `POST #${id}`, sentAt, ackedAt, effect: body });
      }
    };
    const put = async (id: number, body: Values, client: (typeof CLIENTS)[number]) => {
      const { res, sentAt, ackedAt } = await timed(`PUT ${client}`, () =>
        t.http.put(`/api/covid/data/${id}`).set(t.auth(client)).send(body),
      );
      expect({ op: 'PUT', status: [200, 404, 409].includes(res.status) }).toEqual({
        op: 'PUT',
        status: true,
      });
      if (res.status === 200) record(id, { label: `PUT ${client}`, sentAt, ackedAt, effect: body });
    };
    const remove = async (id: number) => {
      const client = pick(CLIENTS);
      const { res, sentAt, ackedAt } = await timed(`DELETE ${client}`, () =>
        t.http.delete(`/api/covid/data/${id}`).set(t.auth(client)),
      );
      expect({ op: 'DELETE', status: [200, 404].includes(res.status) }).toEqual({
        op: 'DELETE',
        status: true,
      });
      if (res.status === 200) {
        record(id, { label: `DELETE ${client}`, sentAt, ackedAt, effect: undefined });
      }
    };

    for (let round = 0; round < ROUNDS; round++) {
      // Mostly records that exist, sometimes one already deleted.
      const live = [...stored.keys()];
      const ids = live.length && rand() < 0.9 ? live : [...history.keys()];
      const ops: Promise<void>[] = [];
      for (const country of COUNTRIES) {
        for (const date of DATES) {
          if (rand() < 0.6) ops.push(post(values(country, date)));
        }
      }
      for (let i = 0; i < Math.min(3, ids.length); i++) {
        // Two clients replace one record (sometimes with identical values) while a third
        // request deletes it.
        const id = pick(ids);
        const current = stored.get(id);
        const base = current ? values(current.country, current.date) : values();
        ops.push(put(id, base, 'alice'));
        ops.push(
          put(id, rand() < 0.3 ? base : { ...base, total_cases: base.total_cases + 1 }, 'bob'),
        );
        if (rand() < 0.7) ops.push(remove(id));
      }
      if (ids.length) {
        // A replacement that moves a record onto another (maybe taken) country and date.
        ops.push(put(pick(ids), values(), pick(CLIENTS)));
      }
      await Promise.all(ops);

      const rows = (await tableRows(t.dataSource, 'covid_data')).filter((row) =>
        KEYS.includes(row.country_key),
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      stored = byId;
      for (const row of rows)
        expect({ unknownRow: row, known: history.has(row.id) }).toMatchObject({ known: true });
      for (const [id, acks] of history) {
        const candidates = acks.filter(
          (ack) => !acks.some((other) => other !== ack && other.sentAt > ack.ackedAt),
        );
        const row = byId.get(id);
        if (!candidates.some((ack) => sameRecord(row, ack.effect))) {
          throw new Error(
            `seed ${SEED}, round ${round}: record ${id} is ${JSON.stringify(row)}, ` +
              `but the last acknowledged writes were ${JSON.stringify(candidates)}`,
          );
        }
      }
      expect(await duplicates()).toEqual([]);
    }
    const summary = [...statuses.entries()].map(([k, n]) => `${k}×${n}`).join(' ');
    process.stdout.write(
      `races: ${requests} writes in ${ROUNDS} rounds (seed ${SEED}); ${summary}\n`,
    );
    expect(requests).toBeGreaterThan(ROUNDS * 3);
  });
});
