import { SqlReader } from '../../sql-runner';
import { FIGURE_COLUMNS, Row } from '../record-rows';
import { DailyValues } from '../disease.types';
import { commitIndexHint } from './commit-index-hint';

/** A figure a version is of: the stored figures, in the records' column order. */
export const VINTAGE_FIELDS = FIGURE_COLUMNS;
export type VintageField = (typeof VINTAGE_FIELDS)[number];

/** A record's figures at a place and date as one revision left them; null: none (a deletion). */
export type VintageFigures = Omit<DailyValues, 'date'> | null;

/**
 * One revision of a place and date with the commit that stored it, and, when the record's next
 * revision took it to another place or date (a `PUT` that moved it), the commit of that move:
 * from then on the figure is gone from this place and date.
 */
export interface VintageRevision {
  id: number;
  key: string;
  country: string;
  date: string;
  /** The commit's `seq` (the order writes committed in) and moment (epoch ms). */
  seq: number;
  issuedAt: number;
  figures: VintageFigures;
  movedAway?: { id: number; seq: number; issuedAt: number };
}

/** Which revisions: a place, a date range, and where a page starts (a place and date, inclusive). */
export interface VintageFilter {
  countryKey?: string;
  from?: string;
  to?: string;
  start?: { key: string; date: string };
}

/**
 * The revisions behind `/vintages` and `/series?lag=N`: by place, date, record and id, read through
 * the `(country_key, date, record_id)` index of `<key>_revisions` (decision 0025), each with its
 * commit (one seek in the commits' unique `change_set` index) and the record's next revision (one
 * seek in `(record_id, id)`). A read costs the revisions it returns, never the whole history.
 */
export class VintagesRepository {
  private readonly revisions: string;
  private readonly commits: string;
  /**
   * MariaDB's hints: on a small or fresh table its planner may take the `(date, record_id)` index,
   * and with few commits it reads the commits first, then sorts the whole range: the revisions
   * come first (`STRAIGHT_JOIN`, the tables in the FROM's order), read in the index's order. With
   * few commits it also joins them through a join buffer, which sorts the whole range after the
   * page's place again: each commit is found by its index (`bySet`).
   */
  private readonly byPlace: string;
  private readonly inOrder: string;
  private readonly bySet: string;

  /** @param key the disease's key (its tables' prefix). */
  constructor(
    private readonly sql: SqlReader,
    key: string,
  ) {
    this.revisions = `${key}_revisions`;
    this.commits = `${key}_revision_commits`;
    this.byPlace = sql.mysql ? ` FORCE INDEX (idx_${key}_revisions_country_date)` : '';
    this.inOrder = sql.mysql ? 'STRAIGHT_JOIN ' : '';
    this.bySet = commitIndexHint(key, sql.mysql);
  }

  /**
   * At most `limit` revisions of `filter`, by place key, date, record and id (no limit: all of
   * them, for one place's bounded range).
   */
  async revisionsOf(filter: VintageFilter, limit?: number): Promise<VintageRevision[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.countryKey !== undefined) {
      conditions.push('r.country_key = ?');
      params.push(filter.countryKey);
    } else {
      // Deletions recorded before deletions kept their values have no place: never a version.
      conditions.push('r.country_key IS NOT NULL');
    }
    if (filter.start !== undefined) {
      // The `>=` alone is what both planners seek on: with only the OR, SQLite scans the index
      // from its first place, so a late page of a whole download cost the places before it.
      conditions.push('r.country_key >= ?', '(r.country_key > ? OR r.date >= ?)');
      params.push(filter.start.key, filter.start.key, filter.start.date);
    }
    if (filter.from !== undefined) {
      conditions.push('r.date >= ?');
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      conditions.push('r.date <= ?');
      params.push(filter.to);
    }
    if (limit !== undefined) params.push(limit);
    // Within one place its key is constant: MariaDB sorts again when the ORDER BY still names it.
    const order = `${filter.countryKey === undefined ? 'r.country_key, ' : ''}r.date, r.record_id, r.id`;
    // The revisions that predate the change feed share commit 0, dated by the latest of them:
    // each keeps its own moment instead.
    const rows = await this.sql.read<Row>(
      `SELECT ${this.inOrder}r.id, r.kind, r.country_key, r.country, r.date,
         r.total_cases, r.new_cases, r.total_deaths, r.new_deaths,
         c.seq, CASE WHEN r.change_set = 0 THEN r.at ELSE c.at END AS issued_at,
         n.id AS moved_id, nc.seq AS moved_seq,
         CASE WHEN n.change_set = 0 THEN n.at ELSE nc.at END AS moved_at
       FROM ${this.revisions} r${this.byPlace}
       JOIN ${this.commits} c${this.bySet} ON c.change_set = r.change_set
       LEFT JOIN ${this.revisions} n ON n.id = (
           SELECT MIN(m.id) FROM ${this.revisions} m WHERE m.record_id = r.record_id AND m.id > r.id)
         AND (n.country_key <> r.country_key OR n.date <> r.date)
       LEFT JOIN ${this.commits} nc${this.bySet} ON nc.change_set = n.change_set
       WHERE ${conditions.join(' AND ')}
       ORDER BY ${order}${limit === undefined ? '' : ' LIMIT ?'}`,
      params,
    );
    return rows.map(toVintageRevision);
  }
}

function toVintageRevision(row: Row): VintageRevision {
  const revision: VintageRevision = {
    id: Number(row.id),
    key: String(row.country_key),
    country: String(row.country),
    date: String(row.date),
    seq: Number(row.seq),
    issuedAt: Number(row.issued_at),
    figures:
      row.kind === 'delete'
        ? null
        : {
            total_cases: Number(row.total_cases),
            new_cases: Number(row.new_cases),
            total_deaths: Number(row.total_deaths),
            new_deaths: Number(row.new_deaths),
          },
  };
  // A move not yet committed (or rolled back) has no commit: not a move.
  if (row.moved_id !== null && row.moved_seq !== null && row.moved_seq !== undefined) {
    revision.movedAway = {
      id: Number(row.moved_id),
      seq: Number(row.moved_seq),
      issuedAt: Number(row.moved_at),
    };
  }
  return revision;
}
