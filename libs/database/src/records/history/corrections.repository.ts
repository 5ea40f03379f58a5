import { SqlReader } from '../../sql-runner';
import { FIGURE_COLUMNS, Row } from '../record-rows';
import { correctionTables, regionDaysTable } from '../derived-tables';
import { commitIndexHint } from './commit-index-hint';

/** Runs a query (with the API's deadline). */

/** The stored figures a correction may change, in the order a revision's rows are listed. */
export const CORRECTED_FIELDS = FIGURE_COLUMNS;
export type CorrectedField = (typeof CORRECTED_FIELDS)[number];

/** A figure's values before or after a revision (null: the record did not exist). */
export type FigureValues = Record<CorrectedField, number | null>;

/** What a correcting revision did: changed figures, removed the record, or put one back. */
export const CORRECTION_KINDS = ['update', 'delete', 'restore'] as const;
export type CorrectionKind = (typeof CORRECTION_KINDS)[number];

/**
 * A place in the corrections' order: a revision's commit and id, and a field of it: 0..3 on the
 * day it changed or left, 4..7 on the day a moved record arrived at.
 */
export interface CorrectionPosition {
  seq: number;
  id: number;
  field: number;
}

/** Which corrections to read (dates `YYYY-MM-DD`, instants epoch ms, `until` excluded). */
export interface CorrectionFilter {
  countryKey?: string;
  from?: string;
  to?: string;
  since?: number;
  until?: number;
  /** The request or import id the revisions carry (an import's: `ImportSummary.importId`). */
  requestId?: string;
}

/** A revision's correction of one place and date, with the values before and after it. */
export interface CorrectingRevision {
  seq: number;
  id: number;
  /** 0: the day the revision changed or left; 1: the day a moved record arrived at. */
  part: number;
  /** Epoch ms. */
  at: number;
  actor: string;
  kind: CorrectionKind;
  date: string;
  country: string;
  before: FigureValues | null;
  after: FigureValues | null;
}

const numberOrNull = (value: unknown) =>
  value === null || value === undefined ? null : Number(value);

function figuresOf(row: Row, prefix: string): FigureValues {
  return {
    total_cases: numberOrNull(row[`${prefix}total_cases`]),
    new_cases: numberOrNull(row[`${prefix}new_cases`]),
    total_deaths: numberOrNull(row[`${prefix}total_deaths`]),
    new_deaths: numberOrNull(row[`${prefix}new_deaths`]),
  };
}

/**
 * The reads of the corrections (docs/corrections.md) that each write keeps in its own transaction
 * (`CorrectionStatements`): pages in the change feed's order walk the commits that corrected
 * something, or one place's corrections, through indexes; the corrected days are a table of their
 * own. None of them reads the history.
 */
export class CorrectionsRepository {
  private readonly corrections: string;
  private readonly daysTable: string;
  private readonly commits: string;
  private readonly regionTable: string;
  /** MariaDB: each commit found by its unique index (see `revisions`). */
  private readonly bySet: string;

  constructor(
    private readonly sql: SqlReader,
    key: string,
  ) {
    const tables = correctionTables(key);
    this.corrections = tables.corrections;
    this.daysTable = tables.correctedDays;
    this.commits = `${key}_revision_commits`;
    this.regionTable = regionDaysTable(key);
    this.bySet = commitIndexHint(key, sql.mysql);
  }

  /** Conditions of `filter` on the corrections `k`. */
  private conditions(filter: CorrectionFilter): { sql: string[]; params: unknown[] } {
    const sql: string[] = [];
    const params: unknown[] = [];
    const add = (condition: string, value: unknown) => {
      sql.push(condition);
      params.push(value);
    };
    if (filter.countryKey !== undefined) add('k.country_key = ?', filter.countryKey);
    if (filter.from !== undefined) add('k.date >= ?', filter.from);
    if (filter.to !== undefined) add('k.date <= ?', filter.to);
    if (filter.since !== undefined) add('k.at >= ?', filter.since);
    if (filter.until !== undefined) add('k.at < ?', filter.until);
    if (filter.requestId !== undefined) add('k.request_id = ?', filter.requestId);
    return { sql, params };
  }

  /**
   * At most `limit` corrections in the order of the change feed (commit, then revision, then
   * part), from `after` (that revision included: its fields may continue it), or latest first
   * with `latest`. One place's are read by its index and sorted (a place has few); all places'
   * by walking the commits that corrected something, in order, as far as the page needs.
   */
  async revisions(
    filter: CorrectionFilter,
    limit: number,
    order: { after?: CorrectionPosition; latest?: boolean } = {},
  ): Promise<CorrectingRevision[]> {
    if (filter.countryKey === undefined) return this.walkCommits(filter, limit, order);
    const { sql: where, params } = this.conditions(filter);
    // One place's: the join order is forced (STRAIGHT_JOIN, SQLite's CROSS JOIN), a planner
    // guessing wrong would walk every commit for one place; and each commit is found by its
    // index (`bySet`), where MariaDB would scan the commits through a join buffer.
    const join = this.sql.mysql ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
    const commits = `${this.commits} c${this.bySet}`;
    const from = `${this.corrections} k ${join} ${commits} ON c.change_set = k.change_set`;
    if (order.after) {
      where.push('c.seq >= ?', '(c.seq > ? OR (c.seq = ? AND k.revision_id >= ?))');
      params.push(order.after.seq, order.after.seq, order.after.seq, order.after.id);
    }
    const direction = order.latest ? 'DESC' : 'ASC';
    params.push(limit);
    const rows = await this.sql.read<Row>(
      `SELECT c.seq, k.* FROM ${from}
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY c.seq ${direction}, k.revision_id ${direction}, k.part ${direction} LIMIT ?`,
      params,
    );
    return rows.map(toCorrecting);
  }

  /**
   * All places' corrections, commit after commit in the feed's order, each commit's rows read by
   * its `(change_set, revision_id, part)` index in order, until the page is full. One statement
   * joining the two tables would sort every correction of the store first on MariaDB (an ORDER
   * BY over both tables), which grows with the history.
   */
  private async walkCommits(
    filter: CorrectionFilter,
    limit: number,
    order: { after?: CorrectionPosition; latest?: boolean },
  ): Promise<CorrectingRevision[]> {
    const { sql: where, params } = this.conditions(filter);
    const direction = order.latest ? 'DESC' : 'ASC';
    const rows: CorrectingRevision[] = [];
    const batch = Math.min(limit, 200);
    // The commits still to walk: from the cursor's commit (included), then past the last walked.
    let from: { seq: number; included: boolean } | undefined =
      order.after === undefined ? undefined : { seq: order.after.seq, included: true };
    while (rows.length < limit) {
      const bound =
        from === undefined
          ? ''
          : `AND seq ${order.latest ? '<' : '>'}${from.included ? '=' : ''} ?`;
      const commits = await this.sql.read<Row>(
        `SELECT seq FROM ${this.commits} WHERE corrected = 1 ${bound}
         ORDER BY seq ${direction} LIMIT ?`,
        [...(from === undefined ? [] : [from.seq]), batch],
      );
      for (const commit of commits) {
        const seq = Number(commit.seq);
        const own = [...where];
        const ownParams = [...params];
        if (order.after !== undefined && seq === order.after.seq) {
          own.push('k.revision_id >= ?');
          ownParams.push(order.after.id);
        }
        const found = await this.sql.read<Row>(
          `SELECT ? AS seq, k.* FROM ${this.corrections} k
           WHERE ${[`k.change_set = (SELECT change_set FROM ${this.commits} WHERE seq = ?)`, ...own].join(' AND ')}
           ORDER BY k.revision_id ${direction}, k.part ${direction} LIMIT ?`,
          // The change set by its commit's seq: SQLite hands 62-bit keys to JavaScript rounded.
          [seq, seq, ...ownParams, limit - rows.length],
        );
        rows.push(...found.map(toCorrecting));
        if (rows.length >= limit) break;
      }
      if (commits.length < batch) break;
      from = { seq: Number(commits[commits.length - 1].seq), included: false };
    }
    return rows;
  }

  /**
   * The figures that the revisions of `filter` corrected (one per field changed), counted by the
   * database: an import's or a sync's count, by the id its revisions carry.
   */
  async countFigures(filter: CorrectionFilter): Promise<number> {
    const { sql: where, params } = this.conditions(filter);
    const [row] = await this.sql.read<Row>(
      `SELECT SUM(k.figures) AS figures FROM ${this.corrections} k
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`,
      params,
    );
    return Number(row?.figures ?? 0);
  }

  /**
   * The places and dates with a correction made at `asOf` (epoch ms) or before, or ever: of one
   * place (`countryKey`), or of all.
   */
  async correctedDays(
    countryKey?: string,
    asOf?: number,
  ): Promise<{ key: string; date: string }[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (countryKey !== undefined) {
      where.push('country_key = ?');
      params.push(countryKey);
    }
    if (asOf !== undefined) {
      where.push('first_at <= ?');
      params.push(asOf);
    }
    const rows = await this.sql.read<Row>(
      `SELECT country_key, date FROM ${this.daysTable}
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`,
      params,
    );
    return rows.map((row) => ({ key: String(row.country_key), date: String(row.date) }));
  }

  /** The dates a member of region `name` had corrected, from the region's kept days. */
  async regionCorrectedDates(name: string): Promise<string[]> {
    const rows = await this.sql.read<Row>(
      `SELECT date FROM ${this.regionTable} WHERE region = ? AND corrected_at IS NOT NULL`,
      [name],
    );
    return rows.map((row) => String(row.date));
  }
}

/** A correction's row as the repository answers it (`seq`: its commit's). */
function toCorrecting(row: Row): CorrectingRevision {
  const kind = String(row.kind) as CorrectionKind;
  return {
    seq: Number(row.seq),
    id: Number(row.revision_id),
    part: Number(row.part),
    at: Number(row.at),
    actor: String(row.actor),
    kind,
    date: String(row.date),
    country: String(row.country),
    before: kind === 'restore' ? null : figuresOf(row, 'old_'),
    after: kind === 'delete' ? null : figuresOf(row, 'new_'),
  };
}
