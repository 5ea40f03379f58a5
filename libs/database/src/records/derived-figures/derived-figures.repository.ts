import { addDays } from '@app/common';
import { MAX_OR_TERMS, SqlReader, listChunks } from '../../sql-runner';
import { FIGURE_COLUMNS_SQL, IN_LIMIT, Row, toDaily } from '../record-rows';
import { FigureDay } from '../disease.types';
import { countrySummariesTable } from '../derived-tables';
import { regionDaysTable } from './region-day-statements';

/** The FROM of the records: the table, or the records as they stood at `asOf` (its parameters first). */
type Source = (asOf?: number) => { from: string; params: unknown[] };

/** A date range, either end open, and the instant the records are read as of. */
export interface FigureRange {
  from?: string;
  to?: string;
  asOf?: number;
}

/** A place's day with the key it is stored under. */
export interface KeyedDay extends FigureDay {
  key: string;
  country: string;
}

function rangeWhere(range: FigureRange): { conditions: string[]; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (range.from !== undefined) {
    conditions.push('date >= ?');
    params.push(range.from);
  }
  if (range.to !== undefined) {
    conditions.push('date <= ?');
    params.push(range.to);
  }
  return { conditions, params };
}

const where = (conditions: string[]) =>
  conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';

/** The SQL of the derived series: days of a place, sums of a region, counts for cursor pages. */
export class DerivedFiguresRepository {
  private readonly summaryTable: string;
  private readonly regionTable: string;

  /** @param key the disease's key (its tables' prefix). */
  constructor(
    private readonly sql: SqlReader,
    private readonly source: Source,
    key: string,
  ) {
    this.regionTable = regionDaysTable(key);
    this.summaryTable = countrySummariesTable(key);
  }

  /** One place's days within the range, oldest first, and its name as its last one has it. */
  async placeDays(
    key: string,
    range: FigureRange,
  ): Promise<{ country: string | null; days: FigureDay[] }> {
    const source = this.source(range.asOf);
    const { conditions, params } = rangeWhere(range);
    const rows = await this.sql.read<Row>(
      `SELECT date, country, ${FIGURE_COLUMNS_SQL} FROM ${source.from}
       ${where(['country_key = ?', ...conditions])} ORDER BY date`,
      [...source.params, key, ...params],
    );
    const last = rows[rows.length - 1];
    return { country: last ? String(last.country) : null, days: rows.map(toDaily) };
  }

  /**
   * Each date's sums over the members of a region that have a record that date, with how many do
   * (`countries_reporting`), oldest first: the region's kept days (`<key>_region_days`), or as of
   * an instant, summed from the records as they stood then.
   */
  regionDays(region: { name: string; keys: string[] }, range: FigureRange): Promise<FigureDay[]> {
    if (range.asOf !== undefined) return this.sumRegion(region.keys, range);
    return this.keptRegionDays(region.name, range);
  }

  private async keptRegionDays(region: string, range: FigureRange): Promise<FigureDay[]> {
    const { conditions, params } = rangeWhere(range);
    const rows = await this.sql.read<Row>(
      `SELECT date, ${FIGURE_COLUMNS_SQL}, countries_reporting FROM ${this.regionTable}
       ${where(['region = ?', 'countries_reporting > 0', ...conditions])} ORDER BY date`,
      [region, ...params],
    );
    return rows.map((row) => ({
      ...toDaily(row),
      countries_reporting: Number(row.countries_reporting),
    }));
  }

  /** Keys go IN_LIMIT at a time, the sums then merged. */
  private async sumRegion(keys: string[], range: FigureRange): Promise<FigureDay[]> {
    const byDate = new Map<string, FigureDay>();
    for (let i = 0; i < keys.length; i += IN_LIMIT) {
      const chunk = keys.slice(i, i + IN_LIMIT);
      const source = this.source(range.asOf);
      const { conditions, params } = rangeWhere(range);
      const rows = await this.sql.read<Row>(
        `SELECT date, SUM(new_cases) AS new_cases, SUM(new_deaths) AS new_deaths,
                SUM(total_cases) AS total_cases, SUM(total_deaths) AS total_deaths,
                COUNT(*) AS countries_reporting
         FROM ${source.from}
         ${where([`country_key IN (${chunk.map(() => '?').join(', ')})`, ...conditions])}
         GROUP BY date`,
        [...source.params, ...chunk, ...params],
      );
      for (const row of rows) {
        const day = { ...toDaily(row), countries_reporting: Number(row.countries_reporting) };
        const sum = byDate.get(day.date);
        if (!sum) {
          byDate.set(day.date, day);
          continue;
        }
        sum.new_cases += day.new_cases;
        sum.new_deaths += day.new_deaths;
        sum.total_cases += day.total_cases;
        sum.total_deaths += day.total_deaths;
        sum.countries_reporting! += day.countries_reporting;
      }
    }
    return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** Every place's days within the range, by place key then date. */
  async allDays(range: FigureRange): Promise<KeyedDay[]> {
    const source = this.source(range.asOf);
    const { conditions, params } = rangeWhere(range);
    const rows = await this.sql.read<Row>(
      `SELECT country_key, country, date, ${FIGURE_COLUMNS_SQL} FROM ${source.from}
       ${where(conditions)} ORDER BY country_key, date`,
      [...source.params, ...params],
    );
    return rows.map((row) => ({
      ...toDaily(row),
      key: String(row.country_key),
      country: String(row.country),
    }));
  }

  /**
   * Each place's days up to its latest date at or before `at`: the `span` days ending on that
   * date (what its figures there need), by place key then date. Places without a record by then
   * are left out. Two index seeks per place and its window: never the whole table.
   */
  async latestDays(at: string, span: number): Promise<KeyedDay[]> {
    const rows = await this.sql.read<Row>(this.lastDatesAtOrBefore(), [at]);
    const lasts = rows
      .filter((row) => row.last_date !== null && row.last_date !== undefined)
      .map((row) => ({ key: String(row.country_key), last: String(row.last_date) }));
    const days: KeyedDay[] = [];
    for (const some of listChunks(lasts, { paramsPerItem: 3, maxItems: MAX_OR_TERMS })) {
      const read = await this.sql.read<Row>(
        `SELECT country_key, country, date, ${FIGURE_COLUMNS_SQL} FROM ${this.source().from}
         WHERE ${some.map(() => '(country_key = ? AND date BETWEEN ? AND ?)').join(' OR ')}
         ORDER BY country_key, date`,
        some.flatMap(({ key, last }) => [key, addDays(last, 1 - span), last]),
      );
      for (const row of read) {
        days.push({ ...toDaily(row), key: String(row.country_key), country: String(row.country) });
      }
    }
    return days;
  }

  /**
   * `(country_key, last_date)` of every place, its latest date at or before the one parameter.
   * MySQL answers the GROUP BY with a loose index scan; SQLite would read the whole index, so it
   * hops from place to place through the (country_key, date) index (as `latestPerCountry`).
   */
  private lastDatesAtOrBefore(): string {
    const table = this.source().from;
    if (this.sql.mysql) {
      return `SELECT country_key, MAX(date) AS last_date FROM ${table} WHERE date <= ?
              GROUP BY country_key`;
    }
    return `WITH RECURSIVE k(key) AS (
         SELECT MIN(country_key) FROM ${table}
         UNION ALL
         SELECT (SELECT MIN(country_key) FROM ${table} WHERE country_key > k.key) FROM k
         WHERE k.key IS NOT NULL)
       SELECT key AS country_key,
         (SELECT MAX(date) FROM ${table} WHERE country_key = k.key AND date <= ?) AS last_date
       FROM k WHERE key IS NOT NULL`;
  }

  /**
   * How many days each place has within the range, by place key; only those past `after` (a
   * place key and date) when given.
   */
  async placeCounts(
    range: FigureRange,
    after?: { key: string; date: string },
  ): Promise<{ key: string; days: number }[]> {
    const source = this.source(range.asOf);
    if (source.params.length === 0) return this.keptPlaceCounts(source.from, range, after);
    const { conditions, params } = rangeWhere(range);
    if (after !== undefined) {
      // The `>=` is what the planners seek on (the OR alone scans from the first place).
      conditions.push('country_key >= ?', '(country_key > ? OR date > ?)');
      params.push(after.key, after.key, after.date);
    }
    const rows = await this.sql.read<Row>(
      `SELECT country_key, COUNT(*) AS days FROM ${source.from} ${where(conditions)}
       GROUP BY country_key ORDER BY country_key`,
      [...source.params, ...params],
    );
    return rows.map((row) => ({ key: String(row.country_key), days: Number(row.days) }));
  }

  /**
   * `placeCounts` of the records as they are now, from each country's kept summary (decision
   * 0036) rather than a grouping of the whole table: a place's count is its summary's, or, where a
   * date bounds it, an index range count of that place's days; the cursor's place counts its days
   * after the cursor's date.
   */
  private async keptPlaceCounts(
    table: string,
    range: FigureRange,
    after?: { key: string; date: string },
  ): Promise<{ key: string; days: number }[]> {
    const { conditions, params } = rangeWhere(range);
    const dated = conditions.map((c) => `d.${c}`);
    const count = (extra: string[]) =>
      `(SELECT COUNT(*) FROM ${table} d WHERE ${['d.country_key = s.country_key', ...dated, ...extra].join(' AND ')})`;
    const days: string[] = [];
    const daysParams: unknown[] = [];
    if (after !== undefined) {
      days.push(`CASE WHEN s.country_key = ? THEN ${count(['d.date > ?'])} ELSE `);
      daysParams.push(after.key, ...params, after.date);
    }
    days.push(conditions.length > 0 ? count([]) : 's.records');
    daysParams.push(...(conditions.length > 0 ? params : []));
    if (after !== undefined) days.push(' END');
    const rows = await this.sql.read<Row>(
      `SELECT country_key, days FROM (
         SELECT s.country_key, ${days.join('')} AS days FROM ${this.summaryTable} s
         ${after === undefined ? '' : 'WHERE s.country_key >= ?'}
       ) c WHERE days > 0 ORDER BY country_key`,
      [...daysParams, ...(after === undefined ? [] : [after.key])],
    );
    return rows.map((row) => ({ key: String(row.country_key), days: Number(row.days) }));
  }

  /** The name of a stored place as its most recent record has it; null without a record. */
  async placeName(key: string, asOf?: number): Promise<string | null> {
    const source = this.source(asOf);
    const [row] = await this.sql.read<Row>(
      `SELECT country FROM ${source.from} WHERE country_key = ? ORDER BY date DESC LIMIT 1`,
      [...source.params, key],
    );
    return row ? String(row.country) : null;
  }

  /** The most recent date with a record, null without any. */
  async lastDate(): Promise<string | null> {
    const source = this.source();
    const [row] = await this.sql.read<Row>(`SELECT MAX(date) AS last_date FROM ${source.from}`);
    return typeof row?.last_date === 'string' ? row.last_date : null;
  }
}
