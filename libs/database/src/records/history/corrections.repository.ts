import { FIGURE_COLUMNS, Row } from '../record-rows';

/** Runs a query (with the API's deadline). */
type Query = (sql: string, params?: unknown[]) => Promise<Row[]>;

/** The stored figures a correction may change, in the order a revision's rows are listed. */
export const CORRECTED_FIELDS = FIGURE_COLUMNS;
export type CorrectedField = (typeof CORRECTED_FIELDS)[number];

/** A figure's values before or after a revision (null: the record did not exist). */
export type FigureValues = Record<CorrectedField, number | null>;

/** What a correcting revision did: changed figures, removed the record, or put one back. */
export const CORRECTION_KINDS = ['update', 'delete', 'restore'] as const;
export type CorrectionKind = (typeof CORRECTION_KINDS)[number];

/** A place in the corrections' order: a revision's commit and id, and a field of it (0..3). */
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

/** A revision that corrected figures, with the values before and after it. */
export interface CorrectingRevision {
  seq: number;
  id: number;
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

function figuresOf(row: Row, prefix = ''): FigureValues {
  return {
    total_cases: numberOrNull(row[`${prefix}total_cases`]),
    new_cases: numberOrNull(row[`${prefix}new_cases`]),
    total_deaths: numberOrNull(row[`${prefix}total_deaths`]),
    new_deaths: numberOrNull(row[`${prefix}new_deaths`]),
  };
}

/**
 * The SQL of the corrections (docs/corrections.md), read from one disease's history table. A
 * correction is a revision that, after a record was first published, changed at least one of its
 * stored figures: an update whose figures differ from the record's previous revision (kept in the
 * history), a deletion, or a create at a place and date that had a record deleted before (a
 * restore, a revert, or the same figures loaded again). Updates and deletions are found through
 * the `(kind, country_key, date)` index, creates again through the deletions: the first loads,
 * most of the history, are never walked.
 */
export class CorrectionsRepository {
  private readonly table: string;
  private readonly commits: string;

  constructor(
    private readonly query: Query,
    key: string,
    private readonly mysql: boolean,
  ) {
    this.table = `${key}_revisions`;
    this.commits = `${key}_revision_commits`;
  }

  /** `a` and `b` differ, nulls included. */
  private differ(a: string, b: string): string {
    return this.mysql ? `NOT (${a} <=> ${b})` : `${a} IS NOT ${b}`;
  }

  /** Some stored figure differs between revisions `r` and `p`. */
  private figuresDiffer(): string {
    return `(${CORRECTED_FIELDS.map((f) => this.differ(`r.${f}`, `p.${f}`)).join(' OR ')})`;
  }

  /** The id of the revision of `r`'s record before `r`. */
  private previousId(): string {
    return `(SELECT MAX(q.id) FROM ${this.table} q WHERE q.record_id = r.record_id AND q.id < r.id)`;
  }

  /** Conditions of `filter` on the revisions `alias` (the place and dates of its values). */
  private conditions(
    filter: CorrectionFilter,
    alias: string,
    at = alias,
  ): { sql: string[]; params: unknown[] } {
    const sql: string[] = [];
    const params: unknown[] = [];
    const add = (condition: string, value: unknown) => {
      sql.push(condition);
      params.push(value);
    };
    if (filter.countryKey !== undefined) add(`${alias}.country_key = ?`, filter.countryKey);
    if (filter.from !== undefined) add(`${alias}.date >= ?`, filter.from);
    if (filter.to !== undefined) add(`${alias}.date <= ?`, filter.to);
    if (filter.since !== undefined) add(`${at}.at >= ?`, filter.since);
    if (filter.until !== undefined) add(`${at}.at < ?`, filter.until);
    if (filter.requestId !== undefined) add(`${at}.request_id = ?`, filter.requestId);
    return { sql, params };
  }

  /**
   * The correcting revisions as a derived table `k (id, pid, kind)`: updates with their previous
   * revision's id, deletions, and creates at a place and date that had a deletion before.
   */
  private candidates(filter: CorrectionFilter): { sql: string; params: unknown[] } {
    const updates = this.conditions(filter, 'r');
    const creates = this.conditions(filter, 'd', 'e');
    const and = (sql: string[]) => sql.map((s) => ` AND ${s}`).join('');
    return {
      sql: `(SELECT r.id, ${this.previousId()} AS pid, r.kind FROM ${this.table} r
          WHERE r.kind = 'update'${and(updates.sql)}
        UNION ALL
        SELECT r.id, NULL AS pid, r.kind FROM ${this.table} r
          WHERE r.kind = 'delete' AND r.date IS NOT NULL${and(updates.sql)}
        UNION
        SELECT e.id, NULL AS pid, 'restore' AS kind FROM ${this.table} d
          JOIN ${this.table} e ON e.country_key = d.country_key AND e.date = d.date
            AND e.kind = 'create' AND e.id > d.id
          WHERE d.kind = 'delete'${and(creates.sql)}
      ) k`,
      params: [...updates.params, ...updates.params, ...creates.params],
    };
  }

  /**
   * At most `limit` correcting revisions in the order of the change feed (commit, then id), from
   * `after` (that revision included: its fields may continue it), or latest first with `latest`.
   */
  async revisions(
    filter: CorrectionFilter,
    limit: number,
    order: { after?: CorrectionPosition; latest?: boolean } = {},
  ): Promise<CorrectingRevision[]> {
    const k = this.candidates(filter);
    const params: unknown[] = [...k.params];
    let position = '';
    if (order.after) {
      position = 'WHERE x.seq > ? OR (x.seq = ? AND x.id >= ?)';
      params.push(order.after.seq, order.after.seq, order.after.id);
    }
    const direction = order.latest ? 'DESC' : 'ASC';
    params.push(limit);
    // The commit of each revision by a lookup, not a join: a join lets the planner walk every
    // commit first (all writes, each one) when it guesses the corrections many.
    const rows = await this.query(
      `SELECT x.* FROM (
         SELECT (SELECT c.seq FROM ${this.commits} c WHERE c.change_set = r.change_set) AS seq,
           r.id, r.at, r.actor, k.kind, r.date, r.country,
           r.total_cases, r.new_cases, r.total_deaths, r.new_deaths,
           p.total_cases AS p_total_cases, p.new_cases AS p_new_cases,
           p.total_deaths AS p_total_deaths, p.new_deaths AS p_new_deaths
         FROM ${k.sql}
         JOIN ${this.table} r ON r.id = k.id
         LEFT JOIN ${this.table} p ON p.id = k.pid
         WHERE k.kind <> 'update' OR (p.id IS NOT NULL AND ${this.figuresDiffer()})
       ) x ${position}
       ORDER BY x.seq ${direction}, x.id ${direction} LIMIT ?`,
      params,
    );
    return rows.map((row) => {
      const kind = String(row.kind) as CorrectionKind;
      const values = figuresOf(row);
      return {
        seq: Number(row.seq),
        id: Number(row.id),
        at: Number(row.at),
        actor: String(row.actor),
        kind,
        date: String(row.date),
        country: String(row.country),
        before: kind === 'update' ? figuresOf(row, 'p_') : kind === 'delete' ? values : null,
        after: kind === 'delete' ? null : values,
      };
    });
  }

  /**
   * The figures that the revisions of `filter` corrected (one per field changed), counted by the
   * database: an import's or a sync's count, by the id its revisions carry.
   */
  async countFigures(filter: CorrectionFilter): Promise<number> {
    const k = this.candidates(filter);
    const changed = (f: string) =>
      `CASE WHEN k.kind = 'update' THEN (CASE WHEN ${this.differ(`r.${f}`, `p.${f}`)} THEN 1 ELSE 0 END)
            WHEN r.${f} IS NOT NULL THEN 1 ELSE 0 END`;
    const [row] = await this.query(
      `SELECT SUM(${CORRECTED_FIELDS.map(changed).join(' + ')}) AS figures
       FROM ${k.sql}
       JOIN ${this.table} r ON r.id = k.id
       LEFT JOIN ${this.table} p ON p.id = k.pid
       WHERE k.kind <> 'update' OR p.id IS NOT NULL`,
      k.params,
    );
    return Number(row?.figures ?? 0);
  }

  /**
   * The places and dates with a correction made at `asOf` (epoch ms) or before, or ever: of one
   * place (`countryKey`), or of all. Creates again need no reading: a deletion went before each.
   */
  async correctedDays(
    countryKey?: string,
    asOf?: number,
  ): Promise<{ key: string; date: string }[]> {
    const filter: string[] = [];
    const params: unknown[] = [];
    if (countryKey !== undefined) {
      filter.push('r.country_key = ?');
      params.push(countryKey);
    }
    if (asOf !== undefined) {
      filter.push('r.at <= ?');
      params.push(asOf);
    }
    const and = filter.map((s) => ` AND ${s}`).join('');
    const rows = await this.query(
      `SELECT r.country_key, r.date FROM ${this.table} r
         WHERE r.kind = 'delete' AND r.date IS NOT NULL${and}
       UNION
       SELECT r.country_key, r.date FROM ${this.table} r
         JOIN ${this.table} p ON p.id = ${this.previousId()}
         WHERE r.kind = 'update'${and} AND ${this.figuresDiffer()}`,
      [...params, ...params],
    );
    return rows.map((row) => ({ key: String(row.country_key), date: String(row.date) }));
  }
}
