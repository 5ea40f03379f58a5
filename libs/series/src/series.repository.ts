import { DataSource, EntityManager, Repository } from 'typeorm';
import {
  SeriesRecordEntity,
  exclusiveWrite,
  lastInsertIdSql,
  listChunks,
  placeholders,
  withDeadline,
  writeBatch,
  writeTransaction,
} from '@app/database';
import { ChangeSet, NewRevision, RevisionRepository } from './history/revision.repository';
import {
  INSERT_COLUMNS,
  IN_LIST,
  Row,
  UpsertCounts,
  recordValuesOf,
  toDaily,
  toRecord,
  upsertParams,
  valuesKey,
} from './record-rows';

export type { UpsertCounts };

export { toRecord };
import {
  ChangeOrigin,
  DailyValues,
  ListFilter,
  RecordValues,
  SeriesDefinition,
  SeriesRecord,
} from './series.types';
import { countryKey } from '@app/common';
import { ListCursor } from './list-cursor';
import { LOAD_ASIDE_MIN, SqliteLoadAside } from './load-aside';
import { canonicalCountryName } from '@app/countries';
import { FiguresRepository } from './figures/figures.repository';
import { CorrectionsRepository } from './history/corrections.repository';

/** Records in a batch from which SQLite compares them with the stored ones before writing. */
const COMPARE_FIRST_MIN = 1000;

/**
 * Keys are read country by country, by their dates, when they fill less than one day in this
 * many of their countries' range of dates (`storedRecords`).
 */
const SCATTERED_SHARE = 8;

/** One record's row in an INSERT or UPDATE: 7 values (8 with its id). */
const RECORD_ROW = { paramsPerItem: 8, bytesPerItem: 400 };

const COLUMNS = 'id, date, country, total_cases, new_cases, total_deaths, new_deaths';

/** By `date` then `id`: `desc`, newest first (the API's lists), or `asc` (the CLI's export). */
export type ListOrder = 'asc' | 'desc';

export interface PageOptions {
  first?: SeriesRecord[];
  run?: (query: () => Promise<SeriesRecord[]>) => Promise<SeriesRecord[]>;
  order?: ListOrder;
}

/**
 * All SQL of one disease's table: plain SQL that MySQL and SQLite share, but for the latest record
 * per country and the upsert, which each dialect writes its own way.
 */
export class SeriesRepository {
  private readonly table: string;
  private readonly records: Repository<SeriesRecordEntity>;
  /** The history: every write below appends its revisions in its own transaction. */
  readonly revisions: RevisionRepository;
  /** SQLite: a large load, without holding the only writer all along. */
  private readonly loadAside?: SqliteLoadAside;
  /** The reads of the derived series (`/series`, the map), on the same records. */
  readonly figures: FiguresRepository;
  /** The corrections found in the history (`/corrections`, the series' flags). */
  readonly corrections: CorrectionsRepository;
  /** Changes with every committed write, on SQLite only (see `FiguresRepository`). */
  readonly version?: () => Promise<string>;

  /**
   * @param deadlineMs longest wait for one database call before it fails as "database
   * unavailable" (the API sets it; the admin CLI's long imports do not).
   */
  constructor(
    private readonly dataSource: DataSource,
    definition: SeriesDefinition,
    private readonly deadlineMs?: number,
  ) {
    this.records = dataSource.getRepository(definition.entity);
    this.table = this.records.metadata.tableName;
    this.revisions = new RevisionRepository(dataSource, definition, deadlineMs);
    const revisions = `${definition.key}_revisions`;
    // Every committed write adds revisions and seals a commit; on SQLite (one writer) both take
    // their ids in commit order, so the pair changes with every write, a load built aside included.
    const version = async () => {
      const [row] = await this.rows(
        `SELECT (SELECT MAX(id) FROM ${revisions}) AS r,
                (SELECT MAX(seq) FROM ${definition.key}_revision_commits) AS c`,
      );
      return `${String(row?.r)}:${String(row?.c)}`;
    };
    const mysql = dataSource.options.type === 'mysql';
    this.version = mysql ? undefined : version;
    this.figures = new FiguresRepository(
      (sql, params) => this.rows(sql, params),
      (asOf) => this.source(asOf),
      this.version,
    );
    this.corrections = new CorrectionsRepository(
      (sql, params) => this.rows(sql, params),
      definition.key,
      mysql,
    );
    if (dataSource.options.type !== 'mysql') {
      this.loadAside = new SqliteLoadAside(
        dataSource,
        { data: this.table, revisions: `${definition.key}_revisions` },
        definition.key,
      );
    }
  }

  private async rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return withDeadline(this.dataSource.query<Row[]>(sql, params), this.deadlineMs);
  }

  async latest(count: number): Promise<SeriesRecord[]> {
    const rows = await this.rows(
      `SELECT ${COLUMNS} FROM ${this.table} ORDER BY date DESC, id DESC LIMIT ?`,
      [count],
    );
    return rows.map(toRecord);
  }

  /**
   * MySQL: `ANALYZE TABLE` (InnoDB samples a few pages per index). The server keeps the index
   * statistics it read when it opened the table; after an import into a table that was nearly
   * empty then, it reads the whole index for the latest record per country instead of a loose
   * index scan, ten and more times slower, until the table is analysed or closed. SQLite: nothing
   * to do, its queries here walk the index themselves.
   */
  async refreshStatistics(): Promise<void> {
    if (this.dataSource.options.type !== 'mysql') return;
    await this.rows(`ANALYZE TABLE ${this.table}`);
  }

  async isEmpty(): Promise<boolean> {
    return (await this.rows(`SELECT 1 AS one FROM ${this.table} LIMIT 1`, [])).length === 0;
  }

  /**
   * Where records are read from: the data table, or the records as they stood at `asOf` (epoch
   * ms), from the history. Its parameters come first: it is the query's FROM.
   */
  private source(asOf?: number): { from: string; params: unknown[] } {
    if (asOf === undefined) return { from: this.table, params: [] };
    const { sql, params } = this.revisions.asOfTable(asOf);
    return { from: sql, params };
  }

  /** One record by id, as it stands or as it stood at `asOf` (epoch ms); undefined when none. */
  async byId(id: number, asOf?: number): Promise<SeriesRecord | undefined> {
    const source = this.source(asOf);
    const rows = await this.rows(`SELECT ${COLUMNS} FROM ${source.from} WHERE id = ?`, [
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

  async between(key: string, from: string, to: string, asOf?: number): Promise<SeriesRecord[]> {
    const source = this.source(asOf);
    const rows = await this.rows(
      `SELECT ${COLUMNS} FROM ${source.from} WHERE country_key = ? AND date >= ? AND date <= ? ORDER BY date DESC, id DESC`,
      [...source.params, key, from, to],
    );
    return rows.map(toRecord);
  }

  /** One country's daily values, oldest first, and its name as its most recent record has it. */
  async daily(key: string): Promise<{ country: string | null; days: DailyValues[] }> {
    const rows = await this.rows(
      `SELECT date, country, new_cases, new_deaths, total_cases, total_deaths
       FROM ${this.table} WHERE country_key = ? ORDER BY date`,
      [key],
    );
    const last = rows[rows.length - 1];
    return { country: last ? String(last.country) : null, days: rows.map(toDaily) };
  }

  /** Sums over the countries that have a record on each date, oldest first. */
  async dailyWorld(): Promise<DailyValues[]> {
    const rows = await this.rows(
      `SELECT date, SUM(new_cases) AS new_cases, SUM(new_deaths) AS new_deaths,
              ${this.sumOfIntegers('total_cases')} AS total_cases,
              ${this.sumOfIntegers('total_deaths')} AS total_deaths
       FROM ${this.table} GROUP BY date ORDER BY date`,
    );
    return rows.map(toDaily);
  }

  /**
   * The sum of a BIGINT column, always a number: SQLite's SUM fails on an integer overflow past
   * 2^63 (a thousand countries at the largest total), its TOTAL adds as doubles; MySQL's is exact.
   */
  private sumOfIntegers(column: string): string {
    return this.dataSource.options.type === 'mysql' ? `SUM(${column})` : `TOTAL(${column})`;
  }

  /** Each country's most recent record. */
  async latestPerCountry(): Promise<SeriesRecord[]> {
    const rows = await this.rows(
      `SELECT t.id, t.date, t.country, t.total_cases, t.new_cases, t.total_deaths, t.new_deaths
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
    if (this.dataSource.options.type === 'mysql') {
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
    const where = key === undefined ? '' : 'WHERE country_key = ?';
    const rows = await this.rows(
      `SELECT l.country, g.records, g.first_date, g.last_date
       FROM (SELECT country_key, COUNT(*) AS records, MIN(date) AS first_date, MAX(date) AS last_date
             FROM ${this.table} ${where} GROUP BY country_key) g
       JOIN ${this.table} l ON l.country_key = g.country_key AND l.date = g.last_date
       ORDER BY g.country_key`,
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
  ): Promise<SeriesRecord[]> {
    const { where, params, offset } = this.listWhere(filter, cursor, order);
    const direction = order === 'desc' ? 'DESC' : 'ASC';
    const source = this.source(filter.asOf);
    const rows = await this.rows(
      `SELECT ${COLUMNS} FROM ${source.from} ${where} ORDER BY date ${direction}, id ${direction} LIMIT ? OFFSET ?`,
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
  ): AsyncGenerator<SeriesRecord[]> {
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

  /** A new record and its `create` revision, in one transaction (one round trip on MySQL). */
  async insert(given: RecordValues, origin: ChangeOrigin): Promise<number> {
    const values = withCanonicalCountry(given);
    const [id] = await withDeadline(
      writeBatch(this.dataSource, [
        {
          sql: `INSERT INTO ${this.table} (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          params: upsertParams(values),
        },
        ...this.revisions.singleChangeStatements(origin, {
          recordIdSql: lastInsertIdSql(this.dataSource),
          kind: 'create',
          values,
        }),
      ]),
      this.deadlineMs,
    );
    if (id === undefined) throw new Error('the database answered no id for a new record');
    return id;
  }

  /**
   * Replaces every field of a record, with an `update` revision; false when the id does not
   * exist. Values equal to the stored ones write nothing (and append no revision).
   */
  async update(id: number, given: RecordValues, origin: ChangeOrigin): Promise<boolean> {
    const values = withCanonicalCountry(given);
    return withDeadline(
      writeTransaction(this.dataSource, async (manager) => {
        const [row] = await manager.query<Row[]>(
          `SELECT ${COLUMNS} FROM ${this.table} WHERE id = ?${this.forUpdate}`,
          [id],
        );
        if (!row) return false;
        const stored = toRecord(row);
        if (stored.date === values.date && valuesKey(stored) === valuesKey(values)) return true;
        await manager.update(this.records.target, { id }, toEntity(values));
        const changes = this.revisions.changeSet(origin);
        await changes.append(manager, [{ recordId: id, kind: 'update', values }]);
        await changes.seal(manager);
        return true;
      }),
      this.deadlineMs,
    );
  }

  /**
   * Deletes a record, with a `delete` revision; false when the id does not exist. The revision
   * keeps the values the record had (read in the transaction), so that reads as of a moment find
   * the deletion by country and date; the history still shows it without values.
   */
  async delete(id: number, origin: ChangeOrigin): Promise<boolean> {
    return withDeadline(
      writeTransaction(this.dataSource, async (manager) => {
        const [row] = await manager.query<Row[]>(
          `SELECT ${COLUMNS} FROM ${this.table} WHERE id = ?${this.forUpdate}`,
          [id],
        );
        if (!row) return false;
        await manager.delete(this.records.target, { id });
        const changes = this.revisions.changeSet(origin);
        await changes.append(manager, [
          { recordId: id, kind: 'delete', values: recordValuesOf(row) },
        ]);
        await changes.seal(manager);
        return true;
      }),
      this.deadlineMs,
    );
  }

  /**
   * Puts records back into given states (values, or null: absent), all in one transaction: a
   * deleted record comes back with its id. Each record changed appends its revision; one already in
   * its state is left as it is. Answers what was done to each, in order.
   */
  async restore(
    states: { recordId: number; values: RecordValues | null }[],
    origin: ChangeOrigin,
  ): Promise<(NewRevision['kind'] | 'unchanged')[]> {
    return writeTransaction(this.dataSource, async (manager) => {
      const changes = this.revisions.changeSet(origin);
      const done: (NewRevision['kind'] | 'unchanged')[] = [];
      for (const { recordId, values: given } of states) {
        const values = given && withCanonicalCountry(given);
        const [row] = await manager.query<Row[]>(
          `SELECT ${COLUMNS} FROM ${this.table} WHERE id = ?${this.forUpdate}`,
          [recordId],
        );
        const stored = row === undefined ? null : toRecord(row);
        let kind: NewRevision['kind'] | 'unchanged';
        if (values === null) {
          kind = stored === null ? 'unchanged' : 'delete';
          if (kind === 'delete') await manager.delete(this.records.target, { id: recordId });
        } else if (stored === null) {
          kind = 'create';
          await manager.insert(this.records.target, { id: recordId, ...toEntity(values) });
        } else if (stored.date === values.date && valuesKey(stored) === valuesKey(values)) {
          kind = 'unchanged';
        } else {
          kind = 'update';
          await manager.update(this.records.target, { id: recordId }, toEntity(values));
        }
        if (kind !== 'unchanged') {
          // A deletion's revision keeps the values the record had, as `delete` does.
          const kept = kind === 'delete' ? stored : values;
          await changes.append(manager, [{ recordId, kind, values: kept }]);
        }
        done.push(kind);
      }
      await changes.seal(manager);
      return done;
    });
  }

  /** MySQL locks the row read before it is rewritten; SQLite's write transaction holds the file. */
  private get forUpdate(): string {
    return this.dataSource.options.type === 'mysql' ? ' FOR UPDATE' : '';
  }

  /**
   * Inserts or updates by country and date, all in one transaction: every record is written or
   * none (a whole import file, a bulk request). A record equal to the stored one (same name and
   * figures) is not written again: a sync that re-reads a whole file rewrites only what changed.
   * Once `signal` is aborted, the transaction is rolled back at the next chunk and this throws.
   * Counts are exact unless another writer races on the same keys (then its write or this one's
   * is the last; the revision says what this one saw).
   */
  async upsertMany(
    records: RecordValues[],
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<UpsertCounts> {
    if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
    const canonical = records.map(withCanonicalCountry);
    const { pending, unchanged } = await this.withoutUnchanged(canonical);
    const loaded = await this.loadedAside(pending, origin, signal);
    if (loaded) return { ...loaded, unchanged: loaded.unchanged + unchanged };
    // Concurrent bulk writes over the same keys can deadlock on MySQL: `writeTransaction` runs
    // the victim again.
    const counts = await withDeadline(this.upsertOnce(pending, origin, signal), this.deadlineMs);
    return { ...counts, unchanged: counts.unchanged + unchanged };
  }

  /**
   * SQLite, many records to create or change (a first load, a restated series) in a store whose
   * history is not much larger, each key once: written aside and swapped in (`SqliteLoadAside`);
   * null when written the usual way.
   */
  private async loadedAside(
    records: RecordValues[],
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<UpsertCounts | null> {
    if (!this.loadAside || records.length < LOAD_ASIDE_MIN) return null;
    const keys = new Set(records.map((r) => `${countryKey(r.country)}|${r.date}`));
    if (keys.size < records.length) return null;
    return this.loadAside.run(records, this.revisions.changeSet(origin), signal);
  }

  /**
   * SQLite, a large batch (a whole file): the records equal to the stored ones, compared before
   * the write lock is taken, so that a sync re-reading a whole file holds SQLite's only writer
   * just for what changed. Equal then means written then by the file: an API write that changes
   * such a record meanwhile simply comes after the file. A key named twice is left to the
   * transaction (its last values win). Run in the process's write queue, so that the read never
   * sees another write of this process half done. MySQL locks rows, not the file: nothing to do.
   */
  private async withoutUnchanged(
    records: RecordValues[],
  ): Promise<{ pending: RecordValues[]; unchanged: number }> {
    if (this.dataSource.options.type === 'mysql' || records.length < COMPARE_FIRST_MIN) {
      return { pending: records, unchanged: 0 };
    }
    const keyOf = (r: RecordValues) => `${countryKey(r.country)}|${r.date}`;
    const stored = await exclusiveWrite(this.dataSource, () =>
      this.storedRecords(this.dataSource.manager, records),
    );
    const named = new Map<string, number>();
    for (const record of records) named.set(keyOf(record), (named.get(keyOf(record)) ?? 0) + 1);
    const pending = records.filter((record) => {
      const key = keyOf(record);
      const found = stored.get(key);
      return named.get(key) !== 1 || !found || valuesKey(found) !== valuesKey(record);
    });
    return { pending, unchanged: records.length - pending.length };
  }

  /**
   * The same as `upsertMany` for records that arrive in chunks (an import's, as its file is
   * parsed), all in one transaction: on MySQL the server writes one chunk while the next is
   * parsed. A chunk source that throws rolls everything back. Not run again on a deadlock (the
   * chunks are gone): the error is the caller's.
   */
  async upsertStream(
    chunks: AsyncIterable<RecordValues[]>,
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<UpsertCounts> {
    let started = false;
    return writeTransaction(
      this.dataSource,
      async (manager) => {
        if (started) throw new Error('an import transaction cannot be run again');
        started = true;
        const changes = this.revisions.changeSet(origin);
        const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
        for await (const chunk of chunks) {
          await this.applyChunk(manager, chunk.map(withCanonicalCountry), changes, counts, signal);
        }
        if (signal?.aborted) throw new Error('interrupted');
        await changes.seal(manager);
        return counts;
      },
      'READ COMMITTED',
    );
  }

  /**
   * MySQL runs it at READ COMMITTED: each read sees what other writers have committed, and no gap
   * locks keep them out of the keys a long import reads (only the rows it writes stay locked until
   * it commits).
   */
  private upsertOnce(
    records: RecordValues[],
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<UpsertCounts> {
    const work = async (manager: EntityManager): Promise<UpsertCounts> => {
      const changes = this.revisions.changeSet(origin);
      const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
      await this.applyChunk(manager, records, changes, counts, signal);
      if (signal?.aborted) throw new Error('interrupted');
      await changes.seal(manager);
      return counts;
    };
    return writeTransaction(this.dataSource, work, 'READ COMMITTED');
  }

  /**
   * Writes what differs from the stored records and appends its revisions to `changes`, adding to
   * `counts`. Two reads whatever the size: the stored records of the keys written, then (MySQL)
   * the ids of the records created.
   */
  private async applyChunk(
    manager: EntityManager,
    records: RecordValues[],
    changes: ChangeSet,
    counts: UpsertCounts,
    signal?: AbortSignal,
  ): Promise<void> {
    if (records.length === 0) return;
    const stored = await this.storedRecords(manager, records);
    // What each key holds once the records before it are written (a batch may name a key twice).
    const written = new Map<string, { id?: number; values: string }>();
    const changed: { key: string; values: RecordValues; kind: 'create' | 'update' }[] = [];
    for (const record of records) {
      const key = `${countryKey(record.country)}|${record.date}`;
      const found = stored.get(key);
      const before = written.get(key) ?? (found && { id: found.id, values: valuesKey(found) });
      const after = valuesKey(record);
      if (before?.values === after) {
        counts.unchanged++;
        continue;
      }
      const kind = before === undefined ? 'create' : 'update';
      counts[kind === 'create' ? 'inserted' : 'updated']++;
      written.set(key, { id: before?.id, values: after });
      changed.push({ key, values: record, kind });
    }
    if (written.size === changed.length && this.dataSource.options.type === 'mysql') {
      await this.applyMysql(manager, changed, stored, changes, counts, signal);
      return;
    }
    if (written.size < changed.length) {
      // A key written twice: each write keeps the values it wrote.
      await this.writeChunks(manager, changed, signal);
      const ids = await this.idsOf(manager, changed, stored);
      // In the input's order (elsewhere new records come first).
      await changes.append(
        manager,
        changed.map(({ key, values, kind }) => ({ recordId: ids(key), kind, values })),
      );
      return;
    }
    // SQLite, each record once: its revision is a copy of the row written, made by the database.
    const creates = changed.filter((c) => c.kind === 'create');
    const updates = changed.filter((c) => c.kind === 'update');
    const created = await this.writeCreates(manager, creates, signal);
    await this.writeChunks(manager, updates, signal);
    await changes.appendCopies(manager, this.table, 'create', created);
    const updatedIds = updates.map(({ key }) => Number(stored.get(key)?.id));
    await changes.appendCopies(manager, this.table, 'update', updatedIds);
  }

  /**
   * MySQL, each key once: new records upserted by key, changed ones updated by id. An upsert of
   * a stored key takes an exclusive next-key lock on it, which covers the gap before it: while a
   * source restated its series, every API insert next to any of its keys waited for the import's
   * commit. Rows updated by id are locked alone. A record deleted by another writer since it was
   * read is created again, as the upsert did. Revisions are appended, not copied: an
   * INSERT ... SELECT takes InnoDB's table-level AUTO-INC lock for the whole statement
   * (innodb_autoinc_lock_mode 1), which held every API write's revision back.
   */
  private async applyMysql(
    manager: EntityManager,
    changed: { key: string; values: RecordValues; kind: 'create' | 'update' }[],
    stored: Map<string, SeriesRecord>,
    changes: ChangeSet,
    counts: UpsertCounts,
    signal?: AbortSignal,
  ): Promise<void> {
    const updates = changed
      .filter((c) => c.kind === 'update')
      .map((c) => ({ ...c, id: Number(stored.get(c.key)?.id) }));
    const present = await this.lockRows(
      manager,
      updates.map((u) => u.id),
    );
    const kept = updates.filter((u) => present.has(u.id));
    const creates = [
      ...changed.filter((c) => c.kind === 'create'),
      ...updates.filter((u) => !present.has(u.id)).map((u) => ({ ...u, kind: 'create' as const })),
    ];
    counts.updated -= updates.length - kept.length;
    counts.inserted += updates.length - kept.length;
    await this.writeChunks(manager, creates, signal);
    await this.updateByIds(manager, kept, signal);
    const createdIds = await this.idsOf(manager, creates, new Map());
    await changes.append(manager, [
      ...creates.map(({ key, values }) => ({
        recordId: createdIds(key),
        kind: 'create' as const,
        values,
      })),
      ...kept.map(({ id, values }) => ({ recordId: id, kind: 'update' as const, values })),
    ]);
  }

  /** MySQL: locks the rows `ids` that still exist (record locks only) and answers them. */
  private async lockRows(manager: EntityManager, ids: number[]): Promise<Set<number>> {
    const present = new Set<number>();
    for (const some of listChunks(ids, IN_LIST)) {
      const rows = await manager.query<Row[]>(
        `SELECT id FROM ${this.table} WHERE id IN (${placeholders(some.length)}) FOR UPDATE`,
        some,
      );
      for (const row of rows) present.add(Number(row.id));
    }
    return present;
  }

  /** MySQL: writes each record's values over the row `id`, by chunks (one statement each). */
  private async updateByIds(
    manager: EntityManager,
    updates: { id: number; values: RecordValues }[],
    signal?: AbortSignal,
  ): Promise<void> {
    const columns = ['country', 'total_cases', 'new_cases', 'total_deaths', 'new_deaths'] as const;
    for (const chunk of listChunks(updates, RECORD_ROW)) {
      if (signal) await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw new Error('interrupted');
      const first = `SELECT ? AS id, ${columns.map((c) => `? AS ${c}`).join(', ')}`;
      const rest = ` UNION ALL SELECT ${['?', ...columns.map(() => '?')].join(', ')}`;
      await manager.query(
        `UPDATE ${this.table} d JOIN (${first}${rest.repeat(chunk.length - 1)}) v ON d.id = v.id
         SET ${columns.map((c) => `d.${c} = v.${c}`).join(', ')}`,
        chunk.flatMap(({ id, values }) => [id, ...columns.map((c) => values[c])]),
      );
    }
  }

  /** Upserts `changes` by chunks; between two, a turn of the event loop lets a signal in. */
  private async writeChunks(
    manager: EntityManager,
    changes: { values: RecordValues }[],
    signal?: AbortSignal,
  ): Promise<void> {
    for (const some of listChunks(changes, RECORD_ROW)) {
      // SQLite's statements run synchronously: without the pause no signal would get in.
      if (signal) await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw new Error('interrupted');
      const chunk = some.map((c) => c.values);
      await manager.query(this.upsertSql(chunk.length), chunk.flatMap(upsertParams));
    }
  }

  /**
   * Inserts new records and answers their ids, in order. SQLite: plain inserts, whose ids follow
   * the statement's last one (the transaction is the only writer, and ids only grow); MySQL: upserts
   * (another writer may have created a key meanwhile), then one read of the ids.
   */
  private async writeCreates(
    manager: EntityManager,
    creates: { key: string; values: RecordValues }[],
    signal?: AbortSignal,
  ): Promise<number[]> {
    if (this.dataSource.options.type === 'mysql') {
      await this.writeChunks(manager, creates, signal);
      const ids = await this.idsOf(manager, creates, new Map());
      return creates.map(({ key }) => ids(key));
    }
    const ids: number[] = [];
    for (const some of listChunks(creates, RECORD_ROW)) {
      if (signal) await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw new Error('interrupted');
      const chunk = some.map((c) => c.values);
      const rows = placeholders(chunk.length, '(?, ?, ?, ?, ?, ?, ?)');
      const last = Number(
        await manager.query(
          `INSERT INTO ${this.table} (${INSERT_COLUMNS}) VALUES ${rows}`,
          chunk.flatMap(upsertParams),
        ),
      );
      for (let id = last - chunk.length + 1; id <= last; id++) ids.push(id);
    }
    return ids;
  }

  /** The id of each key written: stored before, or read once for the records created. */
  private async idsOf(
    manager: EntityManager,
    changes: { key: string; values: RecordValues; kind?: string }[],
    stored: Map<string, SeriesRecord>,
  ): Promise<(key: string) => number> {
    const created = changes.filter((c) => !stored.has(c.key)).map((c) => c.values);
    const read = created.length ? await this.storedRecords(manager, created) : new Map();
    return (key) => {
      const id = stored.get(key)?.id ?? (read.get(key) as SeriesRecord | undefined)?.id;
      if (id === undefined) throw new Error('a record just written was not found again');
      return id;
    };
  }

  /**
   * The stored records with the keys of `records`, by country key and date. Keys close together
   * (a file's new days, a whole series): one query (per `IN_LIST` countries) over their range of
   * dates. Keys scattered over a much larger range (a source revising 1% of its rows): one query
   * per country naming its dates, so that the write does not read the whole table while it holds
   * the writer.
   */
  private async storedRecords(
    manager: EntityManager,
    records: RecordValues[],
  ): Promise<Map<string, SeriesRecord>> {
    const datesOf = new Map<string, Set<string>>();
    for (const r of records) {
      const key = countryKey(r.country);
      const dates = datesOf.get(key) ?? new Set<string>();
      dates.add(r.date);
      datesOf.set(key, dates);
    }
    const wanted = new Set(records.map((r) => `${countryKey(r.country)}|${r.date}`));
    let first = records[0].date;
    let last = first;
    for (const { date } of records) {
      if (date < first) first = date;
      if (date > last) last = date;
    }
    const found = new Map<string, SeriesRecord>();
    const keep = (rows: Row[]) => {
      for (const row of rows) {
        const key = `${String(row.country_key)}|${String(row.date)}`;
        if (wanted.has(key)) found.set(key, toRecord(row));
      }
    };
    const days = (Date.parse(last) - Date.parse(first)) / 86_400_000 + 1;
    if (wanted.size * SCATTERED_SHARE < datesOf.size * days) {
      for (const [key, dates] of datesOf) {
        for (const some of listChunks([...dates], { ...IN_LIST, fixedParams: 1 })) {
          keep(
            await manager.query<Row[]>(
              `SELECT country_key, ${COLUMNS} FROM ${this.table}
               WHERE country_key = ? AND date IN (${placeholders(some.length)})`,
              [key, ...some],
            ),
          );
        }
      }
      return found;
    }
    for (const some of listChunks([...datesOf.keys()], { ...IN_LIST, fixedParams: 2 })) {
      keep(
        await manager.query<Row[]>(
          `SELECT country_key, ${COLUMNS} FROM ${this.table}
           WHERE country_key IN (${placeholders(some.length)}) AND date >= ? AND date <= ?`,
          [...some, first, last],
        ),
      );
    }
    return found;
  }

  private upsertSql(count: number): string {
    const values = placeholders(count, '(?, ?, ?, ?, ?, ?, ?)');
    const updates = ['country', 'total_cases', 'new_cases', 'total_deaths', 'new_deaths'];
    const conflict =
      this.dataSource.options.type === 'mysql'
        ? `ON DUPLICATE KEY UPDATE ${updates.map((c) => `${c} = VALUES(${c})`).join(', ')}`
        : `ON CONFLICT (country_key, date) DO UPDATE SET ${updates.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    return `INSERT INTO ${this.table} (${INSERT_COLUMNS}) VALUES ${values} ${conflict}`;
  }
}

/**
 * Every write stores a recognised country under its canonical name (`US` -> `United States`),
 * whichever path it comes by, so that two spellings never make two countries.
 */
function withCanonicalCountry(values: RecordValues): RecordValues {
  const country = canonicalCountryName(values.country);
  return country === values.country ? values : { ...values, country };
}

function toEntity(given: RecordValues): Omit<SeriesRecordEntity, 'id'> {
  const values = withCanonicalCountry(given);
  return {
    date: values.date,
    country: values.country,
    countryKey: countryKey(values.country),
    totalCases: values.total_cases,
    newCases: values.new_cases,
    totalDeaths: values.total_deaths,
    newDeaths: values.new_deaths,
  };
}
