import { SqlRunner } from '../../sql-runner';
import { RevisionRepository } from '../history/revision.repository';
import { countrySummariesTable } from '../derived-tables';
import { ListCursor } from '../list-cursor';
import { FIGURE_COLUMNS_SQL, RECORD_COLUMNS_SQL, Row, toDaily, toRecord } from '../record-rows';
import { DailyValues, ListFilter, DiseaseDefinition, StoredRecord } from '../disease.types';

export { toRecord };

/** By `date` then `id`: `desc`, newest first (the API's lists), or `asc` (the CLI's export). */
export type ListOrder = 'asc' | 'desc';

export interface PageOptions {
  first?: StoredRecord[];
  run?: (query: () => Promise<StoredRecord[]>) => Promise<StoredRecord[]>;
  order?: ListOrder;
}

/**
 * The read queries of one disease's table (lists, windows, aggregates; as of an instant through
 * the history): plain SQL that MySQL and SQLite share, but for the latest record per country,
 * which each dialect writes its own way. Writes go through `RecordWriter`.
 */
export class RecordReadsRepository {
  private readonly table: string;
  /** Each country's count and dates, kept by the writes (`CountrySummaryStatements`). */
  private readonly summaries: string;
  /** Changes with every committed write, on SQLite only (the read cache keeps answers by it). */
  readonly version?: () => Promise<string>;

  constructor(
    private readonly sql: SqlRunner,
    definition: DiseaseDefinition,
    /** The history: where reads as of an instant come from. */
    private readonly revisions: RevisionRepository,
  ) {
    this.table = definition.table;
    this.summaries = countrySummariesTable(definition.key);
    // Every committed write that changes something seals a commit, a copy-swap load included; on
    // SQLite (one writer) its `seq` follows the commit order. `data_version` changes with any other
    // connection's commit: the CLI's prune, which deletes revisions without a commit of its own.
    const version = async () => {
      const [row] = await this.rows(
        `SELECT (SELECT MAX(seq) FROM ${definition.key}_revision_commits) AS c,
                (SELECT data_version FROM pragma_data_version()) AS d`,
      );
      return `${String(row?.c)}:${String(row?.d)}`;
    };
    this.version = sql.mysql ? undefined : version;
  }

  private rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.sql.read<Row>(sql, params);
  }

  async latest(count: number): Promise<StoredRecord[]> {
    const rows = await this.rows(
      `SELECT ${RECORD_COLUMNS_SQL} FROM ${this.table} ORDER BY date DESC, id DESC LIMIT ?`,
      [count],
    );
    return rows.map(toRecord);
  }

  async isEmpty(): Promise<boolean> {
    return (await this.rows(`SELECT 1 AS one FROM ${this.table} LIMIT 1`, [])).length === 0;
  }

  /**
   * Where records are read from: the data table, or the records as they stood at `asOf` (epoch
   * ms), from the history. Its parameters come first: it is the query's FROM.
   */
  source(asOf?: number): { from: string; params: unknown[] } {
    if (asOf === undefined) return { from: this.table, params: [] };
    const { sql, params } = this.revisions.asOfTable(asOf);
    return { from: sql, params };
  }

  /** One record by id, as it stands or as it stood at `asOf` (epoch ms); undefined when none. */
  async byId(id: number, asOf?: number): Promise<StoredRecord | undefined> {
    const source = this.source(asOf);
    const rows = await this.rows(`SELECT ${RECORD_COLUMNS_SQL} FROM ${source.from} WHERE id = ?`, [
      ...source.params,
      id,
    ]);
    return rows.length === 0 ? undefined : toRecord(rows[0]);
  }

  /**
   * As of a past instant, the newest date whose candidate survives, walking the index backwards:
   * MAX() would check every revision of the country.
   */
  async lastDate(key: string, asOf?: number): Promise<string | null> {
    const { from, params } = this.source(asOf);
    const [row] = await this.rows(
      asOf === undefined
        ? `SELECT MAX(date) AS last_date FROM ${from} WHERE country_key = ?`
        : `SELECT date AS last_date FROM ${from} WHERE country_key = ? ORDER BY date DESC LIMIT 1`,
      [...params, key],
    );
    return typeof row?.last_date === 'string' ? row.last_date : null;
  }

  async between(key: string, from: string, to: string, asOf?: number): Promise<StoredRecord[]> {
    const source = this.source(asOf);
    const rows = await this.rows(
      `SELECT ${RECORD_COLUMNS_SQL} FROM ${source.from} WHERE country_key = ? AND date >= ? AND date <= ? ORDER BY date DESC, id DESC`,
      [...source.params, key, from, to],
    );
    return rows.map(toRecord);
  }

  /** One country's daily values, oldest first, and its name as its most recent record has it. */
  async daily(key: string): Promise<{ country: string | null; days: DailyValues[] }> {
    const rows = await this.rows(
      `SELECT date, country, ${FIGURE_COLUMNS_SQL}
       FROM ${this.table} WHERE country_key = ? ORDER BY date`,
      [key],
    );
    const last = rows[rows.length - 1];
    return { country: last ? String(last.country) : null, days: rows.map(toDaily) };
  }

  /** Each country's most recent record. */
  async latestPerCountry(): Promise<StoredRecord[]> {
    const rows = await this.rows(
      `SELECT ${RECORD_COLUMNS_SQL.split(', ')
        .map((c) => `t.${c}`)
        .join(', ')}
       FROM ${this.latestDates()} JOIN ${this.table} t
         ON t.country_key = m.country_key AND t.date = m.last_date`,
    );
    return rows.map(toRecord);
  }

  /**
   * `m(country_key, last_date)`. MySQL answers the GROUP BY with a loose index scan; SQLite would
   * scan the whole index, so it hops from country to country through the (country_key, date)
   * index instead (two seeks per country), which MariaDB runs badly.
   */
  private latestDates(): string {
    if (this.sql.mysql) {
      return `(SELECT country_key, MAX(date) AS last_date FROM ${this.table} GROUP BY country_key) m`;
    }
    return `(WITH RECURSIVE k(key) AS (
         SELECT MIN(country_key) FROM ${this.table}
         UNION ALL
         SELECT (SELECT MIN(country_key) FROM ${this.table} WHERE country_key > k.key) FROM k
         WHERE k.key IS NOT NULL)
       SELECT key AS country_key, (SELECT MAX(date) FROM ${this.table} WHERE country_key = k.key) AS last_date
       FROM k WHERE key IS NOT NULL) m`;
  }

  async countries(
    key?: string,
  ): Promise<{ country: string; records: number; first_date: string; last_date: string }[]> {
    // Each country's row is kept by every write (decision 0036): no grouping of the whole table.
    const where = `WHERE g.records > 0${key === undefined ? '' : ' AND g.country_key = ?'}`;
    const rows = await this.rows(
      `SELECT l.country, g.records, g.first_date, g.last_date
       FROM ${this.summaries} g
       JOIN ${this.table} l ON l.country_key = g.country_key AND l.date = g.last_date
       ${where} ORDER BY g.country_key`,
      key === undefined ? [] : [key],
    );
    return rows.map((row) => ({
      country: String(row.country),
      records: Number(row.records),
      first_date: String(row.first_date),
      last_date: String(row.last_date),
    }));
  }

  async sumNew(
    key: string,
    from: string,
    to: string,
  ): Promise<{ new_cases: number; new_deaths: number }> {
    const [row] = await this.rows(
      `SELECT COALESCE(SUM(new_cases), 0) AS new_cases, COALESCE(SUM(new_deaths), 0) AS new_deaths
       FROM ${this.table} WHERE country_key = ? AND date >= ? AND date <= ?`,
      [key, from, to],
    );
    return { new_cases: Number(row.new_cases), new_deaths: Number(row.new_deaths) };
  }

  /**
   * One page of the list, by `date` then `id`, descending (the API's order) or ascending (the
   * export's). The page starts past `cursor` (keyset pagination: the previous page's last record),
   * else past `filter.after` (a client's cursor), else at `filter.offset`; so a page deep in the
   * list costs what the first does. It ends at `filter.until` (included) when set.
   */
  async page(
    filter: ListFilter,
    size: number,
    cursor?: ListCursor,
    order: ListOrder = 'desc',
  ): Promise<StoredRecord[]> {
    const { where, params, offset } = this.listWhere(filter, cursor, order);
    const direction = order === 'desc' ? 'DESC' : 'ASC';
    const source = this.source(filter.asOf);
    const rows = await this.rows(
      `SELECT ${RECORD_COLUMNS_SQL} FROM ${source.from} ${where} ORDER BY date ${direction}, id ${direction} LIMIT ? OFFSET ?`,
      [...source.params, ...params, size, offset],
    );
    return rows.map(toRecord);
  }

  /**
   * Where the first `count` records of the list (newest first) end, read from the index alone
   * (date, id) before a large list streams, so that its `Link` header can be sent first:
   * `last`, the `count`-th record (undefined when the list is shorter), and whether another
   * record follows it. Costs a walk over `count` index entries, never over what precedes the
   * list's start.
   */
  async boundary(
    filter: ListFilter,
    count: number,
    cursor?: ListCursor,
  ): Promise<{ last?: ListCursor; more: boolean }> {
    const { where, params, offset } = this.listWhere(filter, cursor, 'desc');
    // As of an instant the walk is no longer index-only (each entry is checked against the
    // history): a list longer than the history can end nowhere, as a full dump's `limit` says.
    if (filter.asOf !== undefined && offset + count > (await this.revisions.upperCount())) {
      return { more: false };
    }
    const source = this.source(filter.asOf);
    const rows = await this.rows(
      `SELECT date, id FROM ${source.from} ${where} ORDER BY date DESC, id DESC LIMIT 2 OFFSET ?`,
      [...source.params, ...params, offset + count - 1],
    );
    const last = rows[0] ? { date: String(rows[0].date), id: Number(rows[0].id) } : undefined;
    return { last, more: rows.length > 1 };
  }

  private listWhere(
    filter: ListFilter,
    cursor: ListCursor | undefined,
    order: ListOrder,
  ): { where: string; params: unknown[]; offset: number } {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.countryKey !== undefined) {
      conditions.push('country_key = ?');
      params.push(filter.countryKey);
    }
    if (filter.from !== undefined) {
      conditions.push('date >= ?');
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      conditions.push('date <= ?');
      params.push(filter.to);
    }
    const start = cursor ?? filter.after;
    const [past, beyond] = order === 'desc' ? ['<=', '<'] : ['>=', '>'];
    if (start) {
      conditions.push(`date ${past} ?`, `(date ${beyond} ? OR id ${beyond} ?)`);
      params.push(start.date, start.date, start.id);
    }
    if (filter.until) {
      // The other side of the same order, end included.
      const [before, atMost] = order === 'desc' ? ['>=', '>='] : ['<=', '<='];
      const strictly = order === 'desc' ? '>' : '<';
      conditions.push(`date ${before} ?`, `(date ${strictly} ? OR id ${atMost} ?)`);
      params.push(filter.until.date, filter.until.date, filter.until.id);
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    return { where, params, offset: start ? 0 : filter.offset };
  }

  /**
   * The list, `filter.limit` records at most, as pages of `size` records read one after the
   * other by keyset (`page` with the previous page's last record as cursor). The first page is
   * always given, even empty; `first`, when the caller has already read it; `run` runs each query
   * (the API makes them take turns); `order` as for `page`.
   */
  async *pages(
    filter: ListFilter,
    size: number,
    { first, run = (query) => query(), order = 'desc' }: PageOptions = {},
  ): AsyncGenerator<StoredRecord[]> {
    let wanted = Math.min(filter.limit, size);
    let page = first ?? (await run(() => this.page(filter, wanted, undefined, order)));
    let remaining = filter.limit;
    for (;;) {
      yield page;
      remaining -= page.length;
      if (remaining <= 0 || page.length < wanted) return;
      const last = page[page.length - 1];
      const cursor = { date: last.date, id: last.id };
      wanted = Math.min(remaining, size);
      page = await run(() => this.page(filter, wanted, cursor, order));
      if (page.length === 0) return;
    }
  }
}
