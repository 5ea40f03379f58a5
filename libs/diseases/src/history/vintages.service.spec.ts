import { ConcurrencyLimit } from '@app/common';
import { VintageFilter, VintageRevision } from '@app/database';
import { VintagesService } from './vintages.service';
import { DEFAULT_VINTAGES_LIMIT, Vintage } from './vintage-list';

/** A history of 30 places by 10 dates, 1 to 3 revisions each, some changing nothing. */
const PLACES = Array.from({ length: 30 }, (_, i) => `place-${String(i).padStart(2, '0')}`);

function history(): VintageRevision[] {
  const revisions: VintageRevision[] = [];
  let seq = 0;
  for (let round = 0; round < 3; round++) {
    for (const key of PLACES) {
      for (let day = 1; day <= 10; day++) {
        if (round > 0 && (day + round + key.length + Number(key.slice(-2))) % 3 !== 0) continue;
        seq++;
        const bump = round === 2 && day % 2 === 0 ? 0 : round;
        revisions.push({
          id: seq,
          key,
          country: key.toUpperCase(),
          date: `2021-01-${String(day).padStart(2, '0')}`,
          seq,
          issuedAt: Date.parse('2021-02-01T00:00:00Z') + seq * 60_000,
          figures:
            round === 2 && day === 5
              ? null
              : { total_cases: 100 + day + bump, new_cases: day, total_deaths: 1, new_deaths: 0 },
        });
      }
    }
  }
  return revisions;
}

/** The repository's reads over `revisions`, counting the revisions it answered. */
function fakeRepository(revisions: VintageRevision[]) {
  const sorted = [...revisions].sort(
    (x, y) => x.key.localeCompare(y.key) || x.date.localeCompare(y.date) || x.id - y.id,
  );
  const reads = { revisions: 0 };
  return {
    reads,
    revisionsOf: (filter: VintageFilter, limit?: number) => {
      const { countryKey, from, to, start } = filter;
      const rows = sorted.filter(
        (r) =>
          (countryKey === undefined || r.key === countryKey) &&
          (from === undefined || r.date >= from) &&
          (to === undefined || r.date <= to) &&
          (start === undefined ||
            r.key > start.key ||
            (r.key === start.key && r.date >= start.date)),
      );
      const answered = limit === undefined ? rows : rows.slice(0, limit);
      reads.revisions += answered.length;
      return Promise.resolve(answered);
    },
  };
}

async function walk(
  vintages: VintagesService,
  query: string,
  limit: number,
): Promise<{ rows: Vintage[]; pages: number[] }> {
  const rows: Vintage[] = [];
  const pages: number[] = [];
  let after: string | undefined;
  for (let i = 0; i < 100_000; i++) {
    const params = Object.fromEntries(new URLSearchParams(query));
    const page = JSON.parse((await vintages.list({ ...params, limit, after }, 'json')).text) as {
      vintages: Vintage[];
      next: string | null;
    };
    rows.push(...page.vintages);
    pages.push(page.vintages.length);
    if (page.next === null) return { rows, pages };
    after = page.next;
  }
  throw new Error('no last page');
}

describe('VintagesService', () => {
  const revisions = history();

  it('answers the same versions in pages of any size as in one', async () => {
    const vintages = new VintagesService(fakeRepository(revisions), new ConcurrencyLimit(1));
    const { rows: all } = await walk(vintages, '', 10_000);
    // Every place and date's first revision: 4 versions; a deletion: 4 nulls; a change: 1.
    expect(all.length).toBeGreaterThan(200);
    const deletions = revisions.filter((r) => r.figures === null).length;
    expect(deletions).toBeGreaterThan(0);
    expect(all.filter((v) => v.value === null).length).toBe(deletions * 4);
    for (const limit of [1, 2, 3, 7, 50]) {
      const { rows, pages } = await walk(vintages, '', limit);
      expect(rows).toEqual(all);
      expect(pages.slice(0, -1).every((n) => n === limit)).toBe(true);
    }
  });

  it('downloads the whole list page by page, the same text as one page of every version', async () => {
    const vintages = new VintagesService(fakeRepository(revisions), new ConcurrencyLimit(1));
    const one = (await vintages.list({ limit: 10_000 }, 'csv')).text;
    // Pages of the default size, so that each turn of the event loop stays short: several here.
    expect(one.split('\r\n').length - 2).toBeGreaterThan(DEFAULT_VINTAGES_LIMIT);
    let whole = '';
    for await (const chunk of vintages.whole({}, 'csv')) whole += chunk;
    expect(whole).toBe(one);
  });

  it('stops a read that filters out most versions at its budget, with a cursor', async () => {
    const repository = fakeRepository(revisions);
    const vintages = new VintagesService(repository, new ConcurrencyLimit(1), 10);
    const open = new VintagesService(fakeRepository(revisions), new ConcurrencyLimit(1));
    const since = new Date(Date.parse('2021-02-01T00:00:00Z') + 500 * 60_000).toISOString();
    const query = `issued_since=${since}&fields=total_cases`;
    const { rows: expected } = await walk(open, query, 10_000);
    expect(expected.length).toBeGreaterThan(0);
    const { rows, pages } = await walk(vintages, query, 5);
    expect(rows).toEqual(expected);
    // Short pages with a next: the budget ended them before they filled.
    expect(pages.slice(0, -1).some((n) => n < 5)).toBe(true);
    // No request read much more than its budget and page (and one batch of at least 100).
    expect(repository.reads.revisions / pages.length).toBeLessThan(10 + 5 + 100 + 1);
  });
});
