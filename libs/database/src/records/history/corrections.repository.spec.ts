import { SqlReader } from '../../sql-runner';
import { CorrectionsRepository } from './corrections.repository';

/** A correction row as the table holds it. */
const row = (seq: number, revision: number) => ({
  seq,
  revision_id: revision,
  part: 0,
  at: 1,
  actor: 'import:x',
  kind: 'update',
  date: '2021-03-01',
  country: 'Chile',
  old_total_cases: 1,
  new_total_cases: 2,
});

describe('CorrectionsRepository: a page of every place', () => {
  /** Three corrected commits (seq 1, 2, 3) of three corrections each. */
  function repository() {
    const statements: { sql: string; params: unknown[] }[] = [];
    const query = (sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      if (sql.includes('SELECT seq FROM covid_revision_commits')) {
        const from = sql.includes('seq >') ? Number(params[0]) : 0;
        const inclusive = sql.includes('seq >=');
        const limit = Number(params[params.length - 1]);
        const seqs = [1, 2, 3].filter((seq) => (inclusive ? seq >= from : seq > from));
        return Promise.resolve(seqs.slice(0, limit).map((seq) => ({ seq })));
      }
      const seq = Number(params[0]);
      const limit = Number(params[params.length - 1]);
      const after = sql.includes('k.revision_id >= ?') ? Number(params[2]) : 0;
      const rows = [1, 2, 3]
        .map((n) => row(seq, seq * 10 + n))
        .filter((r) => r.revision_id >= after);
      return Promise.resolve(rows.slice(0, limit));
    };
    return {
      statements,
      corrections: new CorrectionsRepository(
        { read: query as SqlReader['read'], mysql: true },
        'covid',
      ),
    };
  }

  it('walks the commits in order, each by its own index, as far as the page needs', async () => {
    const { statements, corrections } = repository();
    const page = await corrections.revisions({}, 5);
    expect(page.map((c) => [c.seq, c.id])).toEqual([
      [1, 11],
      [1, 12],
      [1, 13],
      [2, 21],
      [2, 22],
    ]);
    // No statement orders the two tables together (MariaDB would sort every correction first).
    expect(statements.some((s) => /ORDER BY c\.seq/.test(s.sql))).toBe(false);
    const reads = statements.filter((s) => s.sql.includes('FROM covid_corrections k'));
    expect(reads.map((s) => s.params[s.params.length - 1])).toEqual([5, 2]);
    expect(
      reads.every((s) => /ORDER BY k\.revision_id ASC, k\.part ASC LIMIT \?/.test(s.sql)),
    ).toBe(true);
  });

  it('starts at the cursor: its commit from its revision on, then the later commits', async () => {
    const { corrections } = repository();
    const page = await corrections.revisions({}, 4, { after: { seq: 2, id: 22, field: 0 } });
    expect(page.map((c) => [c.seq, c.id])).toEqual([
      [2, 22],
      [2, 23],
      [3, 31],
      [3, 32],
    ]);
  });
});
