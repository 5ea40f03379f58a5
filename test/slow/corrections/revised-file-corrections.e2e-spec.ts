/**
 * Corrections of a routine source revision (docs/corrections.md): the real JHU file is loaded,
 * then a copy with 1% of its rows' `total_cases` revised. `/corrections?since=` lists exactly those
 * figures with their old and new values, the series flag exactly those days `corrected`, and every
 * negative daily figure of the file is flagged. The list and the flags still agree after
 * `restore`, `revert` and `prune-history`.
 */
import { join } from 'node:path';
import { StoredRecord } from '@app/diseases';
import { cliTestBed } from '../../support/cli-test-bed';
import { writeRevisedCopy } from '../../support/revised-file';
import { Correction } from '../../support/corrections';

const JHU = join(__dirname, '../../../../shared/data/covid-jhu-2023-03-09.csv.gz');
const REVISED = 'covid-jhu-revised.csv.gz';

const placeDate = (r: { country: string; date: string }) => `${r.country}|${r.date}`;
const sorted = (items: Iterable<string>) => [...items].sort();

describe('corrections of the JHU file with 1% of its rows revised', () => {
  const bed = cliTestBed('covid-corrections-');
  let since: string;
  let revisedCount: number;

  const get = async (url: string) => {
    const res = await bed.t.http.get(url).set(bed.t.auth('reader'));
    expect([url, res.status]).toEqual([url, 200]);
    return res;
  };
  /** Every correction made at `from` or later, 10,000 per page. */
  const correctionsSince = async (from: string): Promise<Correction[]> => {
    const all: Correction[] = [];
    let after = '';
    for (;;) {
      const res = await get(`/api/covid/corrections?since=${from}&limit=10000${after}`);
      const page = res.body as { corrections: Correction[]; next: string | null };
      if (page.next === null) return all;
      all.push(...page.corrections);
      after = `&after=${page.next}`;
    }
  };
  /** Every place's days with their flags, from the whole series streamed as CSV. */
  const flaggedDays = async (): Promise<Map<string, Set<string>>> => {
    const res = await get('/api/covid/series?metrics=new_cases&format=csv&limit=1000000');
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,country,iso_code,new_cases,flags');
    const byFlag = new Map<string, Set<string>>();
    for (const line of lines.slice(1)) {
      // The country may be quoted (a comma in it): date first, flags last.
      const date = line.slice(0, 10);
      const flags = line.slice(line.lastIndexOf(',') + 1);
      // Then iso_code and new_cases, which hold no comma.
      const withCode = line.slice(11, line.lastIndexOf(','));
      const rest = withCode.slice(0, withCode.lastIndexOf(','));
      const quoted = rest.startsWith('"');
      const country = quoted
        ? rest.slice(1, rest.lastIndexOf('"')).replace(/""/g, '"')
        : rest.slice(0, rest.lastIndexOf(','));
      for (const flag of flags === '' ? [] : flags.split('|')) {
        const set = byFlag.get(flag) ?? new Set<string>();
        set.add(placeDate({ country, date }));
        byFlag.set(flag, set);
      }
    }
    return byFlag;
  };
  const correctedDays = async () => sorted((await flaggedDays()).get('corrected') ?? []);

  it('lists exactly the revised figures with their old and new values, and flags them', async () => {
    const first = await bed.cli('import', 'covid', JHU);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('corrected');
    const before = new Set(await correctionsSince('2000-01-01'));
    expect(before.size).toBe(0);

    const revisedFile = join(bed.dir, REVISED);
    const revised = writeRevisedCopy(JHU, revisedFile, 0.01);
    revisedCount = revised.length;
    expect(revisedCount).toBeGreaterThan(2_000);
    since = new Date().toISOString();
    const second = await bed.cli('import', 'covid', revisedFile);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `corrected: ${revisedCount.toLocaleString('en-US')} figures corrected\n`,
    );

    const corrections = await correctionsSince(since);
    expect(corrections).toHaveLength(revisedCount);
    for (const c of corrections) {
      expect(c).toEqual({
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        date: c.date,
        country: c.country,
        field: 'total_cases',
        old: (c.new ?? 0) - 1,
        new: c.new,
        change: 'update',
        source: `import:${REVISED}`,
      });
    }
    expect(sorted(corrections.map((c) => `${c.date}|${c.new}`))).toEqual(
      sorted(revised.map((r) => `${r.date}|${r.total_cases}`)),
    );
    // The series flag exactly those days corrected.
    expect(await correctedDays()).toEqual(sorted(new Set(corrections.map(placeDate))));

    // Every negative daily figure stored is flagged, and nothing else is.
    const data = await get('/api/covid/data?limit=1000000');
    const records = data.body as StoredRecord[];
    const flags = await flaggedDays();
    const negative = (field: 'new_cases' | 'new_deaths') =>
      sorted(records.filter((r) => r[field] < 0).map(placeDate));
    expect(negative('new_cases').length).toBeGreaterThan(0);
    expect(sorted(flags.get('negative_new_cases') ?? [])).toEqual(negative('new_cases'));
    expect(sorted(flags.get('negative_new_deaths') ?? [])).toEqual(negative('new_deaths'));

    const sources = await bed.t.http.get('/api/sources').set(bed.t.auth());
    const bySource = (sources.body as { sources: { url: string; figures_corrected: number }[] })
      .sources;
    expect(bySource.map((s) => [s.url, s.figures_corrected])).toEqual(
      expect.arrayContaining([[REVISED, revisedCount]]),
    );
    // The command line says the same of that source.
    const listed = await bed.cli('sources');
    expect(listed.stdout.split(`covid ${REVISED}\n`)[1]).toMatch(
      new RegExp(`^(  .*\\n){3}  corrected:    ${revisedCount} figure\\(s\\)`),
    );
  }, 1_200_000);

  it('agrees with the flags after restore, revert and prune-history', async () => {
    const [one] = await correctionsSince(since);
    const record = await get(
      `/api/covid/data?country=${encodeURIComponent(one.country)}&from=${one.date}&to=${one.date}`,
    );
    const id = (record.body as StoredRecord[])[0].id;
    const beforeRestore = new Date().toISOString();
    expect((await bed.cli('restore', 'covid', String(id))).code).toBe(0);
    const restored = await correctionsSince(beforeRestore);
    expect(restored.map(({ at: _a, ...rest }) => rest)).toEqual([
      {
        date: one.date,
        country: one.country,
        field: 'total_cases',
        old: one.new,
        new: one.old,
        change: 'update',
        source: 'restore',
      },
    ]);

    const beforeRevert = new Date().toISOString();
    const reverted = await bed.cli(
      'revert',
      'covid',
      '--actor',
      `import:${REVISED}`,
      '--since',
      since,
    );
    expect(reverted.code).toBe(0);
    // The restored record was changed by someone else afterwards: left alone.
    expect(reverted.stdout).toContain(`reverted: ${revisedCount - 1} record(s); left alone: 1`);
    const reverts = await correctionsSince(beforeRevert);
    expect(reverts).toHaveLength(revisedCount - 1);
    for (const c of reverts) {
      expect([c.field, c.change, c.source, c.new]).toEqual([
        'total_cases',
        'update',
        'revert',
        (c.old ?? 0) - 1,
      ]);
    }
    const all = await correctionsSince(since);
    expect(all).toHaveLength(2 * revisedCount);
    const days = sorted(new Set(all.map(placeDate)));
    expect(await correctedDays()).toEqual(days);

    // A horizon after the revised import: the revisions before it go, the corrections and the
    // flags stay as they were (each correction keeps its own values, decision 0036).
    const before = await correctionsSince('2000-01-01');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const pruned = await bed.cli('prune-history', 'covid', '--before', beforeRestore);
    expect(pruned.code).toBe(0);
    const kept = await correctionsSince('2000-01-01');
    expect(kept).toEqual(before);
    expect(kept).toHaveLength(before.length);
    expect(await correctedDays()).toEqual(days);
  }, 1_200_000);
});
