import { SqlSession, listChunks, placeholders } from '../../sql-runner';
import { countryKey } from '@app/common';
import {
  CHANGING_COLUMNS,
  INSERT_COLUMNS,
  IN_LIST,
  RECORD_COLUMNS_SQL,
  Row,
  toRecord,
  upsertParams,
} from '../record-rows';
import { RecordValues, StoredRecord } from '../disease.types';

/**
 * Keys are read country by country, by their dates, when they fill less than one day in this
 * many of their countries' range of dates (`storedRecords`).
 */
const SCATTERED_SHARE = 8;

/** One record's row in an INSERT or UPDATE: 7 values (8 with its id). */
export const RECORD_ROW = { paramsPerItem: 8, bytesPerItem: 400 };

/** A record a bulk write creates or changes, by its key (`keyOf`). */
export interface BulkChange {
  key: string;
  values: RecordValues;
  kind: 'create' | 'update';
}

/** The key a record is unique by: its country's key and its date. */
export function keyOf(values: RecordValues): string {
  return `${countryKey(values.country)}|${values.date}`;
}

/**
 * Between two chunks of a bulk write, a turn of the event loop lets an abort signal in (SQLite's
 * statements run synchronously: without the pause no signal would get in); then stops on it.
 */
export async function nextChunk(signal?: AbortSignal): Promise<void> {
  if (signal) await new Promise((resolve) => setImmediate(resolve));
  if (signal?.aborted) throw new Error('interrupted');
}

/** The statements both databases' bulk writes share, on one disease's table. */
export class BulkStatements {
  constructor(
    readonly table: string,
    private readonly mysql: boolean,
  ) {}

  /** Upserts `changes` by chunks, stopping between two on `signal`. */
  async writeChunks(
    manager: SqlSession,
    changes: { values: RecordValues }[],
    signal?: AbortSignal,
  ): Promise<void> {
    for (const some of listChunks(changes, RECORD_ROW)) {
      await nextChunk(signal);
      const chunk = some.map((c) => c.values);
      await manager.query(this.upsertSql(chunk.length), chunk.flatMap(upsertParams));
    }
  }

  /** The id of each key written: stored before, or read once for the records created. */
  async idsOf(
    manager: SqlSession,
    changes: { key: string; values: RecordValues }[],
    stored: Map<string, StoredRecord>,
  ): Promise<(key: string) => number> {
    const created = changes.filter((c) => !stored.has(c.key)).map((c) => c.values);
    const read = created.length ? await this.storedRecords(manager, created) : new Map();
    return (key) => {
      const id = stored.get(key)?.id ?? (read.get(key) as StoredRecord | undefined)?.id;
      if (id === undefined) throw new Error('a record just written was not found again');
      return id;
    };
  }

  /**
   * The stored records with the keys of `records`, by country key and date. Keys close together
   * (a file's new days, a file restating every day): one query (per `IN_LIST` countries) over their range of
   * dates. Keys scattered over a much larger range (a source revising 1% of its rows): one query
   * per country naming its dates, so that the write does not read the whole table while it holds
   * the writer.
   */
  async storedRecords(
    manager: SqlSession,
    records: RecordValues[],
  ): Promise<Map<string, StoredRecord>> {
    const datesOf = new Map<string, Set<string>>();
    for (const r of records) {
      const key = countryKey(r.country);
      const dates = datesOf.get(key) ?? new Set<string>();
      dates.add(r.date);
      datesOf.set(key, dates);
    }
    const wanted = new Set(records.map(keyOf));
    let first = records[0].date;
    let last = first;
    for (const { date } of records) {
      if (date < first) first = date;
      if (date > last) last = date;
    }
    const found = new Map<string, StoredRecord>();
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
              `SELECT country_key, ${RECORD_COLUMNS_SQL} FROM ${this.table}
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
          `SELECT country_key, ${RECORD_COLUMNS_SQL} FROM ${this.table}
           WHERE country_key IN (${placeholders(some.length)}) AND date >= ? AND date <= ?`,
          [...some, first, last],
        ),
      );
    }
    return found;
  }

  /** Inserts `count` records, each updating the stored one with its key, in the dialect's way. */
  private upsertSql(count: number): string {
    const values = placeholders(count, `(${placeholders(7)})`);
    const conflict = this.mysql
      ? `ON DUPLICATE KEY UPDATE ${CHANGING_COLUMNS.map((c) => `${c} = VALUES(${c})`).join(', ')}`
      : `ON CONFLICT (country_key, date) DO UPDATE SET ${CHANGING_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    return `INSERT INTO ${this.table} (${INSERT_COLUMNS}) VALUES ${values} ${conflict}`;
  }
}
