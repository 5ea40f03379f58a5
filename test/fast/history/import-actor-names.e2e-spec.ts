/**
 * Revisions recorded before imports named their source by its name only: the migration rewrites
 * their actors as imports now record them (no query string, credentials or server folder, within
 * the column's size), and leaves every other actor as it is.
 */
import { ImportActorNames1765450000000 } from '@app/database/migrations/1765450000000-import-actor-names';
import { TestApp, bootTestApp } from '../../support/test-app';

describe('the migration of import actors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('keeps the source name only, on each disease, and leaves other actors alone', async () => {
    const long = `https://h.example/${'p'.repeat(200)}.csv?sig=${'S'.repeat(20)}`;
    const actors: [string, string][] = [
      ['import:/srv/imports/covid.csv.gz', 'import:covid.csv.gz'],
      [
        'import:https://h.example/data/covid.csv?sig=SECRET#x',
        'import:https://h.example/data/covid.csv',
      ],
      [
        'sync:https://user:pass@h.example:8443/covid.csv?token=T',
        'sync:https://h.example:8443/covid.csv',
      ],
      [`sync:${long}`, `sync:https://h.example/${'p'.repeat(200)}.csv`],
      ['import:covid.csv', 'import:covid.csv'],
      ['alice', 'alice'],
      ['cli:revert', 'cli:revert'],
    ];
    for (const key of ['covid', 'mpox']) {
      for (const [i, [actor]] of actors.entries()) {
        await t.dataSource.query(
          `INSERT INTO ${key}_revisions (record_id, at, actor, kind, date, country, country_key,
             total_cases, new_cases, total_deaths, new_deaths) VALUES (?, ?, ?, 'create', '2021-01-01', 'Chile', 'chile', 1, 1, 0, 0)`,
          [900 + i, 1 + i, actor],
        );
      }
    }
    const runner = t.dataSource.createQueryRunner();
    try {
      await new ImportActorNames1765450000000().up(runner);
    } finally {
      await runner.release();
    }
    for (const key of ['covid', 'mpox']) {
      const rows = await t.dataSource.query<{ actor: string }[]>(
        `SELECT actor FROM ${key}_revisions WHERE record_id >= 900 ORDER BY record_id`,
      );
      expect(rows.map((r) => r.actor)).toEqual(actors.map(([, renamed]) => renamed));
    }
  });
});
