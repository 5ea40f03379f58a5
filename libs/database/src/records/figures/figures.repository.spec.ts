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
