/**
 * Versions of a routine source revision (docs/vintages.md): the real JHU file is loaded, then a
 * copy with 1% of its rows' `total_cases` revised. The whole `/vintages` download lists two
 * versions of each revised figure (the first import's, then the copy's) and one of every other,
 * each issued during its import; a country's series as of a moment between the imports is the
 * first file's, and the series at a lag past both is the live one.
 */
import { join } from 'node:path';
import { cliTestBed } from '../../support/cli-test-bed';
import { writeRevisedCopy } from '../../support/revised-file';

const JHU = join(__dirname, '../../../../shared/data/covid-jhu-2023-03-09.csv.gz');

describe('versions of the JHU file with 1% of its rows revised', () => {
  const bed = cliTestBed('covid-vintages-');
  const get = async (url: string) => {
    const res = await bed.t.http.get(url).set(bed.t.auth('reader'));
    expect([url, res.status]).toEqual([url, 200]);
    return res;
  };

  it('lists both versions of each revised figure and one of every other', async () => {
    const t0 = Date.now();
    expect((await bed.cli('import', 'covid', JHU)).code).toBe(0);
    const t1 = Date.now();
    const revisedFile = join(bed.dir, 'covid-jhu-revised.csv.gz');
    const revised = writeRevisedCopy(JHU, revisedFile, 0.01);
    expect(revised.length).toBeGreaterThan(2_000);
    const france = '/api/covid/series?country=France&metrics=total_cases&format=csv';
    const firstFrance = (await get(france)).text;
    const t2 = Date.now();
    expect((await bed.cli('import', 'covid', revisedFile)).code).toBe(0);
    const t3 = Date.now();

    // The whole list, downloaded without `limit`: date,country,iso_code,field,value,issued_at,lag.
    const res = await get('/api/covid/vintages?fields=total_cases&format=csv');
    expect(res.headers.link).toBeUndefined();
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,country,iso_code,field,value,issued_at,lag');
    const versions = new Map<string, { value: string; at: number }[]>();
    for (const line of lines.slice(1)) {
      // The country may be quoted (a comma in it): date first, the four last fields after it.
      const tail = line.split(',').slice(-5);
      const place = line.slice(11, line.length - tail.join(',').length - 1);
      const key = `${line.slice(0, 10)}|${place}`;
      const list = versions.get(key) ?? [];
      list.push({ value: tail[2], at: Date.parse(tail[3]) });
      versions.set(key, list);
    }
    const counts = [...versions.values()].map((list) => list.length);
    expect(counts.filter((n) => n === 2)).toHaveLength(revised.length);
    expect(counts.filter((n) => n !== 1 && n !== 2)).toEqual([]);
    expect(lines.length - 1).toBe(versions.size + revised.length);
    // Each revised row's new value is the second version of a figure of its date, issued then.
    const wanted = new Map<string, number>();
    for (const r of revised) {
      const key = `${r.date}|${r.total_cases}`;
      wanted.set(key, (wanted.get(key) ?? 0) + 1);
    }
    for (const [key, list] of versions) {
      expect(list[0].at).toBeGreaterThanOrEqual(t0);
      expect(list[0].at).toBeLessThanOrEqual(t1);
      if (list.length === 1) continue;
      expect(list[1].at).toBeGreaterThanOrEqual(t2);
      expect(list[1].at).toBeLessThanOrEqual(t3);
      const found = `${key.slice(0, 10)}|${list[1].value}`;
      expect([key, wanted.get(found) ?? 0]).not.toEqual([key, 0]);
      wanted.set(found, (wanted.get(found) ?? 0) - 1);
    }
    expect([...wanted.values()].every((n) => n === 0)).toBe(true);

    // As of a moment between the imports: the first file's figures; far enough on: today's.
    const between = new Date(t2 - 1).toISOString();
    expect((await get(`${france}&as_of=${between}`)).text).toBe(firstFrance);
    expect((await get(`${france}&lag=3650`)).text).toBe((await get(france)).text);
  }, 1_200_000);
});
