import { FiguresRepository } from './figures.repository';

describe('FiguresRepository.placeDays', () => {
  /** A repository over a fake query that counts the places it read, with a fixed version. */
  function repository() {
    const read: unknown[] = [];
    const query = (_sql: string, params: unknown[] = []) => {
      read.push(params[0]);
      return Promise.resolve([{ date: '2023-01-01', country: String(params[0]) }]);
    };
    const figures = new FiguresRepository(
      query,
      () => ({ from: 'covid_data', params: [] }),
      'covid',
      () => Promise.resolve('v1'),
    );
    return { figures, read };
  }

  it('keeps a place read often while the version holds', async () => {
    const { figures, read } = repository();
    await figures.placeDays('france', {});
    await figures.placeDays('france', {});
    expect(read).toEqual(['france']);
  });

  it('reads past the memo for a scan, which leaves the places kept in place', async () => {
    const { figures, read } = repository();
    await figures.placeDays('france', {});
    // A scan of more places than the memo keeps (64) would otherwise push France out.
    for (let i = 0; i < 100; i++) await figures.placeDays(`place-${i}`, {}, { memo: false });
    await figures.placeDays('place-1', {}, { memo: false });
    await figures.placeDays('france', {});
    expect(read.filter((key) => key === 'france')).toEqual(['france']);
    expect(read.filter((key) => key === 'place-1')).toEqual(['place-1', 'place-1']);
  });
});

describe('FiguresRepository.latestDays', () => {
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
    const figures = new FiguresRepository(
      query,
      () => ({ from: 'covid_data', params: [] }),
      'covid',
      undefined,
      mysql,
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
