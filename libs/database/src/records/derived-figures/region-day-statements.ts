import { SqlStatement } from '../../sql-runner';
import { FIGURE_COLUMNS, FIGURE_COLUMNS_SQL } from '../record-rows';

import { REGION_MEMBERS, regionDaysTable } from '../derived-tables';

export { REGION_MEMBERS, regionDaysTable } from '../derived-tables';

/**
 * Each region's daily sums (`<key>_region_days`), kept by every write in its own transaction
 * (decision 0036): a region's series reads its days, never its members' records. A write adds
 * each revision's values at its place and date and takes away the values of the revision before
 * it, so a change set's statement costs what it changed. `corrected_at` is the first moment a
 * member's day was corrected (the region's `corrected` flag).
 */
export class RegionDayStatements {
  private readonly table: string;
  private readonly revisions: string;
  private readonly corrections: string;

  constructor(
    key: string,
    private readonly mysql: boolean,
  ) {
    this.table = regionDaysTable(key);
    this.revisions = `${key}_revisions`;
    this.corrections = `${key}_corrections`;
  }

  /** `INSERT ... SELECT` of sums into the region days, adding to the days already there. */
  private addTo(columns: string[], select: string, params: unknown[], add: string[]): SqlStatement {
    const update = add.map((c) =>
      this.mysql ? `${c} = ${c} + VALUES(${c})` : `${c} = ${c} + excluded.${c}`,
    );
    return {
      sql: `INSERT INTO ${this.table} (region, date, ${columns.join(', ')}) ${select}
        ${this.mysql ? 'ON DUPLICATE KEY UPDATE' : 'ON CONFLICT (region, date) DO UPDATE SET'}
        ${update.join(', ')}`,
      params,
    };
  }

  /** The change set's revisions added to their regions' days, their previous values taken away. */
  delta(changeSet: string): SqlStatement {
    const r = this.revisions;
    const minus = FIGURE_COLUMNS.map((f) => `-p.${f}`).join(', ');
    const columns = [...FIGURE_COLUMNS, 'countries_reporting'];
    return this.addTo(
      columns,
      `SELECT m.region, x.date, ${FIGURE_COLUMNS.map((f) => `SUM(x.${f})`).join(', ')}, SUM(x.n)
       FROM (
         SELECT r.country_key, r.date, ${FIGURE_COLUMNS.map((f) => `r.${f}`).join(', ')}, 1 AS n
         FROM ${r} r WHERE r.change_set = ? AND r.kind <> 'delete'
         UNION ALL
         SELECT p.country_key, p.date, ${minus}, -1
         FROM ${r} r JOIN ${r} p ON p.id = (SELECT MAX(q.id) FROM ${r} q
           WHERE q.record_id = r.record_id AND q.id < r.id)
         WHERE r.change_set = ? AND p.kind <> 'delete'
       ) x JOIN ${REGION_MEMBERS} m ON m.country_key = x.country_key
       WHERE ${this.mysql ? 'TRUE' : '1'}
       GROUP BY m.region, x.date`,
      [changeSet, changeSet],
      columns,
    );
  }

  /**
   * The first moment of a correction of a member's day, from `source` (alias `k`, moment `at`,
   * `k` read first). `kFrom`: `source` and, on MySQL, the index to read it by.
   */
  private corrected(kFrom: string, at: string, where: string, params: unknown[]): SqlStatement {
    const update = this.mysql
      ? 'ON DUPLICATE KEY UPDATE corrected_at = LEAST(COALESCE(corrected_at, VALUES(corrected_at)), VALUES(corrected_at))'
      : 'ON CONFLICT (region, date) DO UPDATE SET corrected_at = MIN(COALESCE(corrected_at, excluded.corrected_at), excluded.corrected_at)';
    return {
      sql: `INSERT INTO ${this.table} (region, date, ${FIGURE_COLUMNS_SQL}, countries_reporting,
          corrected_at)
        SELECT m.region, k.date, 0, 0, 0, 0, 0, MIN(k.${at})
        FROM ${kFrom} ${this.mysql ? 'STRAIGHT_JOIN' : 'CROSS JOIN'} ${REGION_MEMBERS} m
          ON m.country_key = k.country_key
        WHERE ${where} GROUP BY m.region, k.date ${update}`,
      params,
    };
  }

  /**
   * The regions' days that the change set's corrections flag. Its corrections first, by their
   * change-set index, whatever MariaDB's statistics say: it walked the members and read every
   * correction of each member country instead, a cost that grew with the history.
   */
  correctedBy(changeSet: string): SqlStatement {
    const hint = this.mysql ? ` FORCE INDEX (idx_${this.corrections}_change_set)` : '';
    return this.corrected(`${this.corrections} k${hint}`, 'at', 'k.change_set = ?', [changeSet]);
  }

  /** A change set's statements, in order (after its corrections, before its commit row). */
  ofChangeSet(changeSet: string): SqlStatement[] {
    return [this.delta(changeSet), this.correctedBy(changeSet)];
  }

  /** Every region's days made again from the records and the corrected days. */
  rebuild(data: string, correctedDays: string): SqlStatement[] {
    const sums = FIGURE_COLUMNS.map((f) => `SUM(d.${f})`).join(', ');
    return [
      { sql: `DELETE FROM ${this.table}`, params: [] },
      {
        sql: `INSERT INTO ${this.table} (region, date, ${FIGURE_COLUMNS_SQL}, countries_reporting)
          SELECT m.region, d.date, ${sums}, COUNT(*)
          FROM ${data} d JOIN ${REGION_MEMBERS} m ON m.country_key = d.country_key
          GROUP BY m.region, d.date`,
        params: [],
      },
      this.corrected(`${correctedDays} k`, 'first_at', this.mysql ? 'TRUE' : '1', []),
    ];
  }
}
