/**
 * How the reads that join the history's commits find them (decision 0056):
 * - a page of `/vintages` after the first seeks its place in the `(country_key, date)` index,
 *   not scanned from the first place (a whole download's late pages cost the places before them);
 * - on MariaDB, `/vintages` and one place's `/corrections` find each commit by its unique index,
 *   where the planner would scan the commits through a join buffer (with `/vintages`, sorting the
 *   rest of the history at each page).
 */
import { SqlReader } from '@app/database';
import { CorrectionsRepository } from '@app/database/records/history/corrections.repository';
import { VintagesRepository } from '@app/database/records/history/vintages.repository';
import { TestApp, bootTestApp } from '../../support/test-app';
import { TEST_DB_TYPE } from '../../support/test-database';

/** One instruction of SQLite's program for a statement (`EXPLAIN`). */
interface Instruction {
  addr: number;
  opcode: string;
  p1: number;
  p2: number;
  p3: number;
}

/** One table's step in MariaDB's plan (`EXPLAIN`). */
interface Step {
  table: string;
  type: string;
  key: string | null;
  Extra: string | null;
}

const COUNTRIES = ['Chile', 'France', 'Germany', 'Peru', 'Spain'];
const DATES = ['2021-03-01', '2021-03-02', '2021-03-03'];
const COMMITS_BY_INDEX = {
  type: 'eq_ref',
  key: 'uq_covid_revision_commits_change_set',
  buffer: false,
};

/** A record's body, without deaths. */
const figures = (date: string, country: string, total: number, daily: number) => ({
  date,
  country,
  total_cases: total,
  new_cases: daily,
  total_deaths: 0,
  new_deaths: 0,
});

/** The statement a read would run, and its parameters, without running it. */
function statementOf(read: (reader: SqlReader) => Promise<unknown>): Promise<{
  sql: string;
  params: unknown[];
}> {
  return new Promise((resolve, reject) => {
    const reader: SqlReader = {
      mysql: TEST_DB_TYPE === 'mysql',
      read: <T>(sql: string, params: unknown[] = []) => {
        resolve({ sql, params });
        return Promise.resolve([] as T[]);
      },
    };
    read(reader).catch(reject);
  });
}

describe('reads that join the commits', () => {
  let t: TestApp;

  /** MariaDB's plan of a statement, by table: how each is read, and whether through a buffer. */
  const mariadbPlan = async ({ sql, params }: { sql: string; params: unknown[] }) =>
    (await t.dataSource.query<Step[]>(`EXPLAIN ${sql}`, params)).map(
      ({ table, type, key, Extra }) => ({
        table,
        type,
        key,
        buffer: (Extra ?? '').includes('join buffer'),
      }),
    );

  beforeAll(async () => {
    t = await bootTestApp();
    // A few commits: each write is one, as a day's sync would be.
    for (const date of DATES) {
      const res = await t.http
        .post('/api/covid/data/bulk')
        .set(t.auth())
        .send(COUNTRIES.map((country) => figures(date, country, 10, 1)));
      expect(res.status).toBe(200);
    }
    // Corrections of Peru: figures changed after they were stored.
    const peru = await t.http.get('/api/covid/data?country=Peru').set(t.auth());
    for (const { id, date } of peru.body as { id: number; date: string }[]) {
      const res = await t.http
        .put(`/api/covid/data/${id}`)
        .set(t.auth())
        .send(figures(date, 'Peru', 12, 3));
      expect(res.status).toBe(200);
    }
    const corrections = await t.http.get('/api/covid/corrections?country=Peru').set(t.auth());
    expect(corrections.body.corrections).toHaveLength(DATES.length * 2);
  });
  afterAll(() => t.close());

  it('a late /vintages page seeks its place, and on MariaDB each commit by its index', async () => {
    const statement = await statementOf((reader) =>
      new VintagesRepository(reader, 'covid').revisionsOf(
        { start: { key: 'germany', date: '2021-03-02' } },
        250,
      ),
    );
    if (TEST_DB_TYPE === 'sqlite') {
      // Its query plan names `country_key>?` either way (a scan from the first place shows so too):
      // the program tells where the index is entered, from the page's place (parameter 1) or not.
      const program = await t.dataSource.query<Instruction[]>(
        `EXPLAIN ${statement.sql}`,
        statement.params,
      );
      const [{ rootpage }] = await t.dataSource.query<{ rootpage: number }[]>(
        "SELECT rootpage FROM sqlite_master WHERE name = 'idx_covid_revisions_country_date'",
      );
      const cursor = program.find((op) => op.opcode === 'OpenRead' && op.p2 === rootpage)?.p1;
      const seek = program.find((op) => /^Seek[GL][ET]$/.test(op.opcode) && op.p1 === cursor);
      const key = program
        .filter((op) => op.addr < (seek?.addr ?? 0) && op.p2 === seek?.p3)
        .filter((op) => op.opcode === 'Variable' || op.opcode === 'Null')
        .at(-1);
      expect({ seek: seek?.opcode, key: key?.opcode, parameter: key?.p1 }).toEqual({
        seek: 'SeekGE',
        key: 'Variable',
        parameter: 1,
      });
    } else {
      const steps = await mariadbPlan(statement);
      expect(steps.filter((step) => ['r', 'c', 'nc'].includes(step.table))).toEqual([
        { table: 'r', type: 'range', key: 'idx_covid_revisions_country_date', buffer: false },
        { table: 'c', ...COMMITS_BY_INDEX },
        { table: 'nc', ...COMMITS_BY_INDEX },
      ]);
    }
  });

  it("one place's /corrections page finds each commit by its index on MariaDB", async () => {
    // A page near the latest commit: MariaDB then reads the few commits after it by their `seq`
    // and joins them through a buffer.
    const [{ seq }] = await t.dataSource.query<{ seq: number }[]>(
      'SELECT MAX(seq) AS seq FROM covid_revision_commits',
    );
    const statement = await statementOf((reader) =>
      new CorrectionsRepository(reader, 'covid').revisions({ countryKey: 'peru' }, 5, {
        after: { seq: Number(seq), id: 1, field: 0 },
      }),
    );
    if (TEST_DB_TYPE === 'mysql') {
      const steps = await mariadbPlan(statement);
      expect(steps.find((step) => step.table === 'c')).toEqual({ table: 'c', ...COMMITS_BY_INDEX });
    } else {
      // SQLite has no join buffer: it joins by an index where there is one.
      const plan = await t.dataSource.query<{ detail: string }[]>(
        `EXPLAIN QUERY PLAN ${statement.sql}`,
        statement.params,
      );
      expect(plan.map((step) => step.detail)).toContainEqual(
        expect.stringMatching(
          /^SEARCH c USING .*INDEX uq_covid_revision_commits_change_set \(change_set=\?/,
        ),
      );
    }
  });
});
