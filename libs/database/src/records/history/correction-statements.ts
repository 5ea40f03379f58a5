import { SqlStatement } from '../../sql-runner';
import { FIGURE_COLUMNS } from '../record-rows';
import { CorrectionTables } from '../derived-tables';

export { CorrectionTables, correctionTables } from '../derived-tables';

/** The corrections' columns, in the order the statements below select them. */
export const CORRECTION_COLUMNS_SQL = [
  'revision_id',
  'part',
  'change_set',
  'request_id',
  'at',
  'actor',
  'kind',
  'date',
  'country',
  'country_key',
  ...FIGURE_COLUMNS.map((f) => `old_${f}`),
  ...FIGURE_COLUMNS.map((f) => `new_${f}`),
  'figures',
].join(', ');

const NULLS = FIGURE_COLUMNS.map(() => 'NULL').join(', ');
const valuesOf = (alias: string) => FIGURE_COLUMNS.map((f) => `${alias}.${f}`).join(', ');
/** How many of `alias`'s figures are set (a record's whole figures, as a deletion removes them). */
const heldBy = (alias: string) =>
  FIGURE_COLUMNS.map((f) => `(CASE WHEN ${alias}.${f} IS NULL THEN 0 ELSE 1 END)`).join(' + ');

/**
 * The corrections a change set made, written in the change set's own transaction
 * (docs/corrections.md, decision 0036): reads never derive them from the whole history.
 *
 * `<key>_corrections` holds one row per place and date a revision corrected: part 0 the day it
 * changed or left, part 1 the day a moved record arrived at. `<key>_corrected_days` holds each
 * corrected place and date with the moment of its first correction (the flags, `as_of` included).
 *
 * Statements for one database: `scope` selects the revisions looked at (a change set's, or the
 * whole history for the migration), its parameters in `params`.
 */
export class CorrectionStatements {
  constructor(
    private readonly tables: CorrectionTables,
    private readonly mysql: boolean,
  ) {}

  private differ(a: string, b: string): string {
    return this.mysql ? `NOT (${a} <=> ${b})` : `${a} IS NOT ${b}`;
  }

  /** The revision of `r`'s record before `r`, joined as `p`. */
  private previous(join: 'JOIN' | 'LEFT JOIN'): string {
    const { revisions } = this.tables;
    return `${join} ${revisions} p ON p.id = (SELECT MAX(q.id) FROM ${revisions} q
      WHERE q.record_id = r.record_id AND q.id < r.id)`;
  }

  /** `r` holds its record at another place or date than `p` did. */
  private readonly moved = '(r.country_key <> p.country_key OR r.date <> p.date)';

  /**
   * Days changed or left (part 0): a deletion (each figure it held), an update that changed a
   * figure, and the day an update moved a record away from (as a deletion of that day).
   */
  departures(scope: string, params: unknown[]): SqlStatement {
    const { revisions, corrections } = this.tables;
    const differ = FIGURE_COLUMNS.map((f) => this.differ(`r.${f}`, `p.${f}`));
    const changed = FIGURE_COLUMNS.map(
      (f) => `(CASE WHEN ${this.differ(`r.${f}`, `p.${f}`)} THEN 1 ELSE 0 END)`,
    ).join(' + ');
    const head = 'r.id, 0, r.change_set, r.request_id, r.at, r.actor';
    return {
      sql: `INSERT INTO ${corrections} (${CORRECTION_COLUMNS_SQL})
        SELECT ${head}, 'delete', r.date, r.country, r.country_key, ${valuesOf('r')}, ${NULLS},
          ${heldBy('r')}
        FROM ${revisions} r
        WHERE ${scope} AND r.kind = 'delete' AND r.date IS NOT NULL
        UNION ALL
        SELECT ${head}, 'delete', p.date, p.country, p.country_key, ${valuesOf('p')}, ${NULLS},
          ${heldBy('p')}
        FROM ${revisions} r ${this.previous('JOIN')}
        WHERE ${scope} AND r.kind = 'update' AND p.kind <> 'delete' AND ${this.moved}
        UNION ALL
        SELECT ${head}, 'update', r.date, r.country, r.country_key, ${valuesOf('p')},
          ${valuesOf('r')}, ${changed}
        FROM ${revisions} r ${this.previous('JOIN')}
        WHERE ${scope} AND r.kind = 'update' AND p.kind <> 'delete' AND NOT ${this.moved}
          AND (${differ.join(' OR ')})`,
      params: [...params, ...params, ...params],
    };
  }

  /**
   * Days a record came (back) to that had one before (a `restore`): a create, or an update that
   * moved a record there or brought a deleted one back, where an earlier revision left that day.
   * Runs after `departures`, so that a change set that leaves a day and comes back sees itself.
   */
  arrivals(scope: string, params: unknown[]): SqlStatement {
    const { revisions, corrections } = this.tables;
    const movedIn = `(r.kind = 'update' AND p.kind <> 'delete')`;
    return {
      sql: `INSERT INTO ${corrections} (${CORRECTION_COLUMNS_SQL})
        SELECT r.id, CASE WHEN ${movedIn} THEN 1 ELSE 0 END, r.change_set, r.request_id, r.at,
          r.actor, 'restore', r.date, r.country, r.country_key, ${NULLS}, ${valuesOf('r')},
          ${heldBy('r')}
        FROM ${revisions} r ${this.previous('LEFT JOIN')}
        WHERE ${scope} AND r.date IS NOT NULL
          AND (r.kind = 'create' OR (r.kind = 'update' AND (p.kind = 'delete' OR ${this.moved})))
          AND EXISTS (SELECT 1 FROM ${corrections} d WHERE d.country_key = r.country_key
            AND d.date = r.date AND d.kind = 'delete' AND d.revision_id < r.id)`,
      params,
    };
  }

  /** The corrected days of the corrections `scope` selects (alias `k`), each with its first moment. */
  days(scope: string, params: unknown[]): SqlStatement {
    const { corrections, correctedDays } = this.tables;
    const select = `SELECT k.country_key, k.date, MIN(k.at) FROM ${corrections} k WHERE ${scope}
      GROUP BY k.country_key, k.date`;
    return {
      sql: this.mysql
        ? `INSERT INTO ${correctedDays} (country_key, date, first_at) ${select}
           ON DUPLICATE KEY UPDATE first_at = LEAST(first_at, VALUES(first_at))`
        : `INSERT INTO ${correctedDays} (country_key, date, first_at) ${select}
           ON CONFLICT (country_key, date) DO UPDATE SET first_at = MIN(first_at, excluded.first_at)`,
      params,
    };
  }

  /** The three statements of one change set, in order (before its commit row). */
  ofChangeSet(changeSet: string): SqlStatement[] {
    return [
      this.departures('r.change_set = ?', [changeSet]),
      this.arrivals('r.change_set = ?', [changeSet]),
      this.days('k.change_set = ?', [changeSet]),
    ];
  }
}
