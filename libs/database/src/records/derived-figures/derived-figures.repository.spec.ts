import { SqlReader } from '../../sql-runner';
import { DerivedFiguresRepository } from './derived-figures.repository';

describe('DerivedFiguresRepository.latestDays', () => {
  /** 250 places, each with its last date by then; the statements the read runs. */
  function repository(mysql: boolean) {
    const statements: { sql: string; params: unknown[] }[] = [];
    const query = (sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      if (statements.length === 1) {
        return Promise.resolve([
          ...Array.from({ length: 250 }, (_, i) => ({
            country_key: `place-${String(i).padStart(3, '0')}`,
            last_date: '2023-03-09',
          })),
          // A place without a record by then.
          { country_key: 'late', last_date: null },
        ]);
      }
      return Promise.resolve([]);
    };
    const figures = new DerivedFiguresRepository(
      { read: query as SqlReader['read'], mysql },
      () => ({ from: 'covid_data', params: [] }),
      'covid',
    );
    return { figures, statements };
  }

  it.each([true, false])(
    'reads each place by its index, windows in bounded statements (mysql: %s)',
    async (mysql) => {
      const { figures, statements } = repository(mysql);
      await figures.latestDays('2023-03-12', 7);
      const [lasts, ...windows] = statements;
      expect(lasts.params).toEqual(['2023-03-12']);
      expect(lasts.sql).toMatch(mysql ? /GROUP BY country_key/ : /WITH RECURSIVE/);
      // 250 places with a record, at most 100 terms a statement; the one without is not read.
      expect(windows.map((w) => w.params.length / 3)).toEqual([100, 100, 50]);
      expect(windows[0].params.slice(0, 3)).toEqual(['place-000', '2023-03-03', '2023-03-09']);
      expect(windows.flatMap((w) => w.params)).not.toContain('late');
      for (const w of windows) {
        expect(w.sql.split(' OR ')).toHaveLength(w.params.length / 3);
      }
    },
  );
});
