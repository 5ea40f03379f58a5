import { FigureDay } from './daily-figures';

/** Regions' sums kept at once (7 regions, a few ranges each). */
const KEPT = 32;

/**
 * A region's daily sums, kept while the records' version is the one they were read at. Summing
 * every country is the costliest read of the derived series, and on SQLite it holds the event loop
 * (better-sqlite3 is synchronous): the read cache's periodic re-reads would stall every request
 * behind them. `version` must change with every committed write; the version is read before the
 * sums, so a write between the two only costs one more read, never a stale answer.
 */
export class RegionDaysMemo {
  private readonly kept = new Map<string, { version: string; days: FigureDay[] }>();

  constructor(private readonly version: () => Promise<string>) {}

  async get(key: string, read: () => Promise<FigureDay[]>): Promise<FigureDay[]> {
    const version = await this.version();
    const hit = this.kept.get(key);
    if (hit?.version === version) return hit.days;
    const days = await read();
    this.kept.delete(key);
    this.kept.set(key, { version, days });
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return days;
  }
}
