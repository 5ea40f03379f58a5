/**
 * How a page of `/vintages` after the first is read (decision 0056): its revisions are sought from
 * the page's place in the `(country_key, date)` index, not scanned from the first place (a whole
 * download's late pages cost the places before them), and on MariaDB each commit is found by its
 * unique index, not joined through a join buffer that sorts the rest of the history at each page.
 */
import { SqlReader } from '@app/database';
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

const COUNTRIES = ['Chile', 'France', 'Germany', 'Peru', 'Spain'];
const DATES = ['2021-03-01', '2021-03-02', '2021-03-03'];

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

describe('a late /vintages page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
    // A few commits: each write is one, as a day's sync would be.
    for (const date of DATES) {
      const res = await t.http
        .post('/api/covid/data/bulk')
        .set(t.auth())
        .send(
          COUNTRIES.map((country) => ({
            date,
            country,
            total_cases: 10,
            new_cases: 1,
            total_deaths: 0,
            new_deaths: 0,
          })),
        );
      expect(res.status).toBe(200);
    }
  });
  afterAll(() => t.close());

  it('seeks its place, and on MariaDB finds each commit by its index', async () => {
    const { sql, params } = await statementOf((reader) =>
      new VintagesRepository(reader, 'covid').revisionsOf(
        { start: { key: 'germany', date: '2021-03-02' } },
        250,
      ),
    );
    if (TEST_DB_TYPE === 'sqlite') {
      // Its query plan names `country_key>?` either way (a scan from the first place shows so too):
      // the program tells where the index is entered, from the page's place (parameter 1) or not.
      const program = await t.dataSource.query<Instruction[]>(`EXPLAIN ${sql}`, params);
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
      const plan = await t.dataSource.query<
        { table: string; type: string; key: string | null; Extra: string | null }[]
      >(`EXPLAIN ${sql}`, params);
      const steps = plan.map(({ table, type, key, Extra }) => ({
        table,
        type,
        key,
        buffer: (Extra ?? '').includes('join buffer'),
      }));
      expect(steps.filter((step) => ['r', 'c', 'nc'].includes(step.table))).toEqual([
        { table: 'r', type: 'range', key: 'idx_covid_revisions_country_date', buffer: false },
        { table: 'c', type: 'eq_ref', key: 'uq_covid_revision_commits_change_set', buffer: false },
        { table: 'nc', type: 'eq_ref', key: 'uq_covid_revision_commits_change_set', buffer: false },
      ]);
    }
  });
});
