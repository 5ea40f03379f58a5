import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  YEAR_TARGETS,
  YearOfSyncsStats,
  YearRead,
  judgeImports,
  judgeRead,
} from '../../../bench/src/year-run';
import { yearOfSyncsProblems } from '../../../bench/src/year-report';
import { writeRevisedCopy } from '../../support/revised-file';

/** The bench's section "a year of syncs": its revised copies, its verdicts, CI's shape check. */
describe('bench: a year of syncs', () => {
  describe('revised copies of a copy', () => {
    let dir: string;
    const rows = 5000;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'year-of-syncs-'));
      const lines = ['date,country,total_cases,new_cases,total_deaths,new_deaths'];
      for (let i = 0; i < rows; i++) {
        const country = i % 2 === 0 ? 'France' : '"Korea, South"';
        lines.push(`2021-01-01,${country},${i * 10},1,0,0`);
      }
      writeFileSync(join(dir, 'source.csv.gz'), gzipSync(`${lines.join('\n')}\n`));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const totals = (file: string) =>
      gunzipSync(readFileSync(join(dir, file)))
        .toString('utf8')
        .split('\n')
        .slice(1, -1)
        .map((line) => Number(line.split(',').at(-4)));

    it('revises another share of the rows with another seed, keeping the earlier revisions', () => {
      const source = join(dir, 'source.csv.gz');
      const first = writeRevisedCopy(source, join(dir, 'first.csv.gz'), 0.05, 1);
      const second = writeRevisedCopy(
        join(dir, 'first.csv.gz'),
        join(dir, 'second.csv.gz'),
        0.05,
        2,
      );
      const key = (r: { country: string; total_cases: number }) => `${r.country}|${r.total_cases}`;
      const firstKeys = new Set(first.map(key));
      const original = totals('source.csv.gz');
      const revisedTwice = totals('second.csv.gz').filter((total, i) => total === original[i] + 2);
      const changed = totals('second.csv.gz').filter((total, i) => total !== original[i]);

      expect(first.length).toBeGreaterThan(rows * 0.03);
      expect(second.length).toBeGreaterThan(rows * 0.03);
      // Another share: the two seeds pick mostly different rows (a few both, by chance).
      expect(
        second.filter((r) => firstKeys.has(key({ ...r, total_cases: r.total_cases - 1 }))),
      ).toHaveLength(revisedTwice.length);
      expect(revisedTwice.length).toBeLessThan(first.length / 4);
      // The second copy holds the first one's revisions and its own.
      expect(changed).toHaveLength(first.length + second.length - revisedTwice.length);
    });

    it('names the revised rows with their country as the file spells it, unquoted', () => {
      const revised = writeRevisedCopy(join(dir, 'source.csv.gz'), join(dir, 'named.csv.gz'), 1);
      expect(revised.slice(0, 2)).toEqual([
        { date: '2021-01-01', country: 'France', total_cases: 1 },
        { date: '2021-01-01', country: 'Korea, South', total_cases: 11 },
      ]);
    });
  });

  const latencies = (p50Ms: number, p99Ms: number, reads = 30, failedReads = 0) => ({
    readsPerSecond: 10,
    reads,
    failedReads,
    p50Ms,
    p99Ms,
    maxMs: p99Ms,
  });
  const paths = { fresh: '/a', after: '/a' };
  const first = { fresh: 20, after: 30 };
  const ratio = { maxP50Ratio: YEAR_TARGETS.maxP50Ratio };

  describe('verdicts', () => {
    it('holds a read to its p50 ratio: 1.5 times the fresh store met, more missed', () => {
      expect(
        judgeRead('r', paths, first, ratio, latencies(10, 20), latencies(15, 30)),
      ).toMatchObject({ p50Ratio: 1.5, met: true });
      expect(judgeRead('r', paths, first, ratio, latencies(10, 20), latencies(15.1, 30)).met).toBe(
        false,
      );
    });

    it('holds World to its p99 as well, and corrections to their p99 alone', () => {
      const world = { ...ratio, maxP99Ms: YEAR_TARGETS.worldP99Ms };
      expect(judgeRead('w', paths, first, world, latencies(40, 60), latencies(40, 100)).met).toBe(
        false,
      );
      expect(judgeRead('w', paths, first, world, latencies(40, 60), latencies(40, 99)).met).toBe(
        true,
      );
      const corrections = { maxP99Ms: YEAR_TARGETS.correctionsP99Ms };
      expect(
        judgeRead('c', paths, first, corrections, latencies(1, 2), latencies(20, 24)),
      ).toMatchObject({ p50Ratio: 20, met: true });
      expect(
        judgeRead('c', paths, first, corrections, latencies(1, 2), latencies(20, 25)).met,
      ).toBe(false);
    });

    it('misses a read with a failed request on either store', () => {
      expect(
        judgeRead('r', paths, first, ratio, latencies(10, 20, 30, 1), latencies(10, 20)).met,
      ).toBe(false);
    });

    it('holds the last imports to 1.5 times the first ones (medians of 3), each updating its revised rows', () => {
      const i = (seconds: number, updated = 2250) => ({ seconds, updated, revisedRows: 2250 });
      const run = (...seconds: number[]) => judgeImports(seconds.map((s) => i(s)));
      // One slow import at either end moves no median.
      expect(run(2, 9, 2, 5, 5, 3, 3, 30)).toEqual({
        importMedians: { count: 3, first: 2, last: 3 },
        importRatio: 1.5,
        importsMet: true,
      });
      expect(run(2, 2, 1, 3.1, 3.1, 3.1)).toEqual({
        importMedians: { count: 3, first: 2, last: 3.1 },
        importRatio: 1.55,
        importsMet: false,
      });
      // Fewer than six: as many at each end as do not overlap.
      expect(run(2, 2.4, 2.6, 3.1)).toMatchObject({
        importMedians: { count: 2, first: 2.2, last: 2.85 },
        importsMet: true,
      });
      expect(run(2, 3.1)).toMatchObject({ importRatio: 1.55, importsMet: false });
      expect(judgeImports([i(2), i(2, 2249)]).importsMet).toBe(false);
    });
  });

  describe("CI's shape check", () => {
    const read = (name: string): YearRead =>
      judgeRead(name, paths, first, ratio, latencies(10, 20), latencies(12, 25));
    const section = (): YearOfSyncsStats => {
      const imports = [
        { seconds: 3, updated: 2250, revisedRows: 2250 },
        { seconds: 3.3, updated: 2251, revisedRows: 2251 },
      ];
      const reads = [
        'series France',
        'series World',
        'public weekly',
        'corrections, a page',
        'corrections of France',
        'data France as_of',
        'history of a revised record',
        'change feed, last page',
      ].map(read);
      const verdict = judgeImports(imports);
      return {
        copies: 2,
        readsPerRoute: 30,
        share: 0.01,
        firstLoad: {
          file: 'covid.csv.gz',
          rows: 225_171,
          inserted: 225_171,
          updated: 0,
          seconds: 4,
          rowsPerSecond: 56_000,
        },
        asOf: '2026-11-29T06:00:00.000Z',
        historyOf: { id: 1, country: 'France', date: '2020-04-02' },
        reads,
        imports,
        ...verdict,
        targets: YEAR_TARGETS,
        met: verdict.importsMet && reads.every((r) => r.met),
      };
    };

    it('finds a well-formed section well-formed', () => {
      expect(yearOfSyncsProblems(section())).toEqual([]);
    });

    it('names what is missing or inconsistent', () => {
      expect(yearOfSyncsProblems(undefined)).toEqual(['the section "a year of syncs"']);
      const s = section();
      s.reads = s.reads.slice(1);
      s.imports[1].updated = 2000;
      s.reads[0].met = !s.reads[0].met;
      expect(yearOfSyncsProblems(s)).toEqual([
        'a year of syncs: the eight reads, in order',
        'a year of syncs, series World: the verdict follows the figures',
        'a year of syncs: each import updated exactly the rows its copy revised',
        'a year of syncs: the verdicts follow the figures',
      ]);
    });
  });
});
