import { SqlStatement } from '../sql-runner';
import { countrySummariesTable } from './derived-tables';

/**
 * Each country's number of records and first and last dates (`<key>_country_summaries`), kept by
 * every write in its own transaction (decision 0036): `/countries` and `/stats` read them instead
 * of grouping the whole table, which blocked SQLite's event loop for a fifth of a second per read.
 * The count moves by each revision (+1) and the one before it (-1); the dates of the countries the
 * change set touched are read again through the (country_key, date) index, two seeks each.
 */
export class CountrySummaryStatements {
  private readonly table: string;
  private readonly data: string;
  private readonly revisions: string;

  constructor(
    key: string,
    dataTable: string,
    private readonly mysql: boolean,
  ) {
    this.table = countrySummariesTable(key);
    this.data = dataTable;
    this.revisions = `${key}_revisions`;
  }

  /** The change set's revisions (`r`) with the revision before each (`p`), when there is one. */
  private withPrevious(): string {
    const r = this.revisions;
    return `${r} r LEFT JOIN ${r} p ON p.id = (SELECT MAX(q.id) FROM ${r} q
      WHERE q.record_id = r.record_id AND q.id < r.id)`;
  }

  /** Records counted in and out of each country's row (rows made for new countries). */
  private counts(changeSet: string): SqlStatement {
    const r = this.revisions;
    const update = this.mysql
      ? 'ON DUPLICATE KEY UPDATE records = records + VALUES(records)'
      : 'ON CONFLICT (country_key) DO UPDATE SET records = records + excluded.records';
    return {
      sql: `INSERT INTO ${this.table} (country_key, records)
        SELECT x.country_key, SUM(x.n) FROM (
          SELECT r.country_key, 1 AS n FROM ${r} r WHERE r.change_set = ? AND r.kind <> 'delete'
          UNION ALL
          SELECT p.country_key, -1 FROM ${this.withPrevious()}
          WHERE r.change_set = ? AND p.kind IS NOT NULL AND p.kind <> 'delete'
        ) x WHERE x.country_key IS NOT NULL GROUP BY x.country_key
        ${update}`,
      params: [changeSet, changeSet],
    };
  }

  /**
   * The first and last dates of every country the change set touched, from the records. An
   * `INSERT ... SELECT` upsert rather than an `UPDATE` with subqueries: at READ COMMITTED MySQL
   * reads the records consistently, without the shared locks that would make this write wait for
   * another writer's uncommitted records.
   */
  private dates(changeSet: string): SqlStatement {
    const touched = `SELECT r.country_key FROM ${this.revisions} r WHERE r.change_set = ?
      UNION SELECT p.country_key FROM ${this.withPrevious()} WHERE r.change_set = ?`;
    // ORDER BY ... LIMIT 1, not MIN/MAX: MariaDB read every record of the country for a
    // correlated MIN, the whole table for an import that touches every country.
    const edge = (order: 'ASC' | 'DESC') =>
      `(SELECT d.date FROM ${this.data} d WHERE d.country_key = t.country_key
        ORDER BY d.date ${order} LIMIT 1)`;
    const update = this.mysql
      ? 'ON DUPLICATE KEY UPDATE first_date = VALUES(first_date), last_date = VALUES(last_date)'
      : 'ON CONFLICT (country_key) DO UPDATE SET first_date = excluded.first_date, last_date = excluded.last_date';
    return {
      sql: `INSERT INTO ${this.table} (country_key, records, first_date, last_date)
        SELECT t.country_key, 0, ${edge('ASC')}, ${edge('DESC')}
        FROM (${touched}) t WHERE t.country_key IS NOT NULL
        ${update}`,
      params: [changeSet, changeSet],
    };
  }

  /**
   * A change set's statements, in order (before its commit row). A country left without records
   * keeps its row at 0 (the reads skip it): deleting it would lock rows other writers hold.
   */
  ofChangeSet(changeSet: string): SqlStatement[] {
    return [this.counts(changeSet), this.dates(changeSet)];
  }

  /** Every country's row made again from the records (the migration that creates the table). */
  rebuild(): SqlStatement[] {
    return [
      { sql: `DELETE FROM ${this.table}`, params: [] },
      {
        sql: `INSERT INTO ${this.table} (country_key, records, first_date, last_date)
          SELECT country_key, COUNT(*), MIN(date), MAX(date) FROM ${this.data} GROUP BY country_key`,
        params: [],
      },
    ];
  }
}
