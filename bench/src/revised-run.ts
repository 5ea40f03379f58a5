import { RevisedRow } from '../../test/support/revised-file';
import { BenchDb, ImportResult } from './bench-database';
import { AUTH } from './bench-servers';
import { CorrectionsStats, runCorrections } from './corrections-run';
import { importOverLoaded } from './restate-run';
import { VintagesStats, runVintages } from './vintages-run';
import { WriteLatencies } from './sync-run';

/** The share of the COVID file's rows revised: a routine correction by a source. */
const REVISED_SHARE = 0.01;

/** A source revising 1% of its rows, scattered, imported over the loaded store. */
export interface RevisedFileStats {
  /** The first load of the COVID file into the empty store. */
  firstLoad: ImportResult;
  /** The import of the revised copy. */
  revise: ImportResult;
  /** Rows of the copy whose `total_cases` was revised. */
  revisedRows: number;
  /**
   * Revised records that read their new figure through the API and whose update, by the import,
   * is in the change feed: all of them when the import kept its promise.
   */
  verified: number;
  writes: WriteLatencies;
  /** A country's corrections read once the revised copy is in (issue 45's target). */
  corrections?: CorrectionsStats;
  /** A country's versions and its series 7 days on, once the revised copy is in (issue 54). */
  vintages?: VintagesStats;
}

interface Change {
  actor: string;
  change: string;
  id: number;
  record: { date: string; total_cases: number } | null;
}

/**
 * How many revised rows the store holds as revised, each with its update in the history: the
 * import's updates in the change feed since it began, matched with the revised rows by date and
 * new figure, and each record read from the full list with that figure.
 */
async function verifiedRevisions(
  apiUrl: string,
  since: string,
  revised: RevisedRow[],
): Promise<number> {
  const changes: Change[] = [];
  let query = `since=${encodeURIComponent(since)}`;
  for (;;) {
    const res = await fetch(`${apiUrl}/api/covid/changes?${query}&limit=10000`, { headers: AUTH });
    if (res.status !== 200) throw new Error(`change feed answered ${res.status}`);
    const page = (await res.json()) as { changes: Change[]; next: string | null };
    changes.push(...page.changes);
    if (page.next === null || page.changes.length === 0) break;
    query = `after=${page.next}`;
  }
  const updates = changes.filter((c) => c.actor.startsWith('import:') && c.change === 'update');
  const res = await fetch(`${apiUrl}/api/covid/data?limit=100000000`, { headers: AUTH });
  if (res.status !== 200) throw new Error(`the full list answered ${res.status}`);
  const stored = new Map(
    ((await res.json()) as { id: number; total_cases: number }[]).map((r) => [r.id, r.total_cases]),
  );
  const wanted = new Map<string, number>();
  for (const r of revised) {
    const key = `${r.date}|${r.total_cases}`;
    wanted.set(key, (wanted.get(key) ?? 0) + 1);
  }
  let verified = 0;
  for (const { id, record } of updates) {
    const key = record && `${record.date}|${record.total_cases}`;
    const left = key ? (wanted.get(key) ?? 0) : 0;
    if (!key || left === 0 || stored.get(id) !== record?.total_cases) continue;
    wanted.set(key, left - 1);
    verified++;
  }
  return verified;
}

/**
 * The section "revised file": after the first load of the COVID file, the CLI imports a copy with
 * 1% of its rows revised (scattered) while POSTs are sent at `writesPerSecond`; then a country's
 * corrections are read at 20/s (`runCorrections`), then a country's versions and its series 7 days
 * on (`runVintages`).
 */
export async function runRevisedFile(
  db: BenchDb,
  port: number,
  apiMain: string,
  writesPerSecond = 20,
): Promise<RevisedFileStats> {
  let corrections: CorrectionsStats | undefined;
  let vintages: VintagesStats | undefined;
  const run = await importOverLoaded(
    db,
    port,
    apiMain,
    REVISED_SHARE,
    writesPerSecond,
    async (apiUrl, since, revised) => {
      const verified = await verifiedRevisions(apiUrl, since, revised);
      // The store loaded and revised, its history large: what a country's corrections cost.
      corrections = await runCorrections(apiUrl);
      vintages = await runVintages(apiUrl);
      return verified;
    },
  );
  return {
    firstLoad: run.firstLoad,
    revise: run.second,
    revisedRows: run.revised.length,
    verified: run.checked,
    writes: run.writes,
    corrections,
    vintages,
  };
}
