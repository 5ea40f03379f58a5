import { FigureDay } from './daily-figures';
import { PopulationTable } from './population-table';

/** What a place's page is computed from. */
export interface PageInputs {
  days: FigureDay[];
  table: PopulationTable;
  /** The dates flagged `corrected`. */
  corrected: ReadonlySet<string>;
}

/** Whether two sets hold the same members. */
function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const member of a) if (!b.has(member)) return false;
  return true;
}

/** Whether two reads of a place's days hold the same figures (the same array, or equal ones). */
export function sameDays(a: FigureDay[], b: FigureDay[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (
      x.date !== y.date ||
      x.new_cases !== y.new_cases ||
      x.new_deaths !== y.new_deaths ||
      x.total_cases !== y.total_cases ||
      x.total_deaths !== y.total_deaths ||
      x.countries_reporting !== y.countries_reporting
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Pages of the derived series computed from inputs equal to those of the last time, answered
 * again without computing: the read cache reads a place's days again once per CACHE_TTL_MS, and
 * computing a whole series' figures and text holds the event loop far longer than comparing the
 * days read. Equal inputs give the same page, so this is right on every database (on SQLite the
 * days are even the same array while nothing was written: `VersionedMemo`). At most `size`
 * pages are kept, the least recently used dropped first.
 */
export class PageMemo<P> {
  private readonly kept = new Map<string, { inputs: PageInputs; page: P }>();

  constructor(private readonly size = 64) {}

  get(key: string, inputs: PageInputs, compute: () => P): P {
    const hit = this.kept.get(key);
    this.kept.delete(key);
    if (
      hit &&
      hit.inputs.table === inputs.table &&
      sameDays(hit.inputs.days, inputs.days) &&
      sameSet(hit.inputs.corrected, inputs.corrected)
    ) {
      this.kept.set(key, hit);
      return hit.page;
    }
    const page = compute();
    this.kept.set(key, { inputs, page });
    if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value as string);
    return page;
  }
}
