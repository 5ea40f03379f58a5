import {
  LOCK_RETRY_MAX_MS,
  SqlRunner,
  SqlSession,
  listChunks,
  placeholders,
} from '../../sql-runner';
import { isUniqueViolation } from '../../database-errors';
import { countryKey } from '@app/common';
import { ChangeSet } from '../history/revision.repository';
import {
  CHANGING_COLUMNS,
  INSERT_COLUMNS,
  RECORD_COLUMNS_SQL,
  IN_LIST,
  Row,
  UpsertCounts,
  recordValuesOf,
  upsertParams,
  valuesKey,
} from '../record-rows';
import { RecordValues } from '../disease.types';
import { Tables, copyStatements, lastId, leftovers, setSequence } from './sqlite-table-copies';

/** Fewer records than this are written in one transaction, as any other write. */
export const COPY_SWAP_MIN = 10_000;

/**
 * The store is copied aside whole: only while its history is at most this many times the records
 * the file creates or changes (the longest hold of the writer, indexing the history, grows with
 * it). Larger stores are written in one transaction.
 */
const STORE_SHARE_MAX = 2;

/** Records per build transaction: each holds SQLite's only writer for a few tens of ms. */
const BUILD_CHUNK = 3_000;

/** The pause between two transactions of a load (see `stopIf`). */
const LOCK_GAP_MS = 2 * LOCK_RETRY_MAX_MS;

/** One record's row with its id in an INSERT: 8 values. */
const RECORD_ROW = { paramsPerItem: 8, bytesPerItem: 400 };

/** Rows copied per transaction from a live table into its copy. */
const COPY_CHUNK = 10_000;

/**
 * Tables built aside and left older than this were left by a process that died mid-load: they
 * are dropped. Younger ones belong to a load still running: the new load is written the usual way.
 */
export const LEFTOVER_AFTER_MS = 60 * 60_000;

/** Raised inside the swap's transaction to roll it back: another writer changed what the file does. */
class ChangedMeanwhile extends Error {}

interface Plan {
  /** The tables built aside, swapped in at the end. */
  aside: Tables;
  /** Where the live tables go when swapped out (then dropped). */
  old: Tables;
  /** The data table's ids up to this were taken before the load (and are copied): its records
   * come after. */
  firstId: number;
  /** The history's ids up to this were copied before the load began. */
  copiedUpTo: number;
  /** Indexes led by the date, created once the copies are full (see `build`). */
  deferred: string[];
  /** When the history was last pruned (`RevisionPruner`), as the load began; null if never. */
  prunedAt: number | null;
}

/** What the file does to the store, as the copy holds it. */
interface FileChanges {
  creates: RecordValues[];
  updates: { id: number; values: RecordValues }[];
  unchanged: number;
}

/**
 * SQLite only: a large load (a first load, a source restating its records) without holding the only
 * writer for the whole load (decision 0026). The store is copied aside, the file's records and
 * their revisions are written into the copies in short transactions, invisible to readers, and one
 * short transaction brings over what other writers did meanwhile (found by their revisions) and
 * swaps the copies in by renaming. Readers see the file whole or not at all; a failure or an
 * interruption drops the copies and changes nothing. Ids are reserved at the start, so that
 * records and revisions created meanwhile keep theirs.
 * Answers null, having changed nothing, when it does not apply: the store's history is large next
 * to what the file changes, another load is under way, or another writer changed meanwhile a
 * record the file changes; the caller then writes the records the usual way.
 */
export class SqliteCopySwapLoad {
  /**
   * `sql`: a runner without a deadline (a load is long by design); `disease`: the disease's key,
   * under which `history_horizons` notes its prunes.
   */
  constructor(
    private readonly sql: SqlRunner,
    private readonly live: Tables,
    private readonly disease: string,
  ) {}

  /** `records`: canonical country names, each key once. */
  async run(
    records: RecordValues[],
    changes: ChangeSet,
    signal?: AbortSignal,
  ): Promise<UpsertCounts | null> {
    const plan = await this.sql.transaction((manager) => this.prepare(manager, records.length));
    if (!plan) return null;
    let counts: UpsertCounts;
    try {
      await this.copyStore(plan, signal);
      const file = await this.fileChanges(plan, records);
      await this.build(plan, file, changes, signal);
      const swapped = await this.sql
        .transaction((manager) => this.swap(manager, plan, changes))
        .then(
          () => true,
          (error: unknown) => {
            if (error instanceof ChangedMeanwhile) return false;
            throw error;
          },
        );
      if (!swapped) {
        await this.dropTables(plan.aside);
        return null;
      }
      counts = {
        inserted: file.creates.length,
        updated: file.updates.length,
        unchanged: file.unchanged,
      };
    } catch (error) {
      await this.dropTables(plan.aside).catch(() => undefined);
      throw error;
    }
    // The old tables are dropped after the swap, by a transaction of their own, which keeps the
    // swap short (a failure leaves them to the next load's clean-up).
    await this.dropTables(plan.old).catch(() => undefined);
    return counts;
  }

  /**
   * Checks that the load applies, drops what a dead load left, reserves `count` ids in the data
   * and history tables and creates the copies, empty but for their indexes.
   */
  private async prepare(manager: SqlSession, count: number): Promise<Plan | null> {
    const now = Date.now();
    const left = await leftovers(manager, this.live);
    if (left.some(({ since, kind }) => kind === 'load' && now - since < LEFTOVER_AFTER_MS)) {
      return null;
    }
    for (const { name } of left) await manager.query(`DROP TABLE IF EXISTS "${name}"`);
    const most = Math.floor(count * STORE_SHARE_MAX);
    const [{ size }] = await manager.query<{ size: number }[]>(
      `SELECT COUNT(*) AS size FROM (SELECT 1 FROM ${this.live.revisions} LIMIT ?)`,
      [most + 1],
    );
    if (Number(size) > most) return null;
    // Triggers and views on the tables would not follow the copies.
    const [dependent] = await manager.query<unknown[]>(
      `SELECT 1 FROM sqlite_master WHERE type IN ('trigger', 'view') AND tbl_name IN (?, ?)`,
      [this.live.data, this.live.revisions],
    );
    if (dependent) return null;

    const aside = {
      data: `${this.live.data}__load_${now}`,
      revisions: `${this.live.revisions}__load_${now}`,
    };
    const old = {
      data: `${this.live.data}__old_${now}`,
      revisions: `${this.live.revisions}__old_${now}`,
    };
    // Both schemas are read before either copy is created: a copy left half made would send
    // every load the usual way until it is old.
    const data = await copyStatements(manager, this.live.data, aside.data);
    const revisions = await copyStatements(manager, this.live.revisions, aside.revisions);
    if (!data || !revisions) return null;
    for (const statement of [...data.now, ...revisions.now]) await manager.query(statement);
    const deferred = [...data.later, ...revisions.later];
    const firstId = await lastId(manager, this.live.data);
    const copiedUpTo = await lastId(manager, this.live.revisions);
    // Records and revisions created meanwhile take ids after the file's (one revision each); the
    // copies' ids follow the live tables'.
    await setSequence(manager, this.live.data, firstId + count);
    await setSequence(manager, this.live.revisions, copiedUpTo + count);
    await setSequence(manager, aside.data, firstId);
    await setSequence(manager, aside.revisions, copiedUpTo);
    const prunedAt = await this.prunedAt(manager);
    return { aside, old, firstId, copiedUpTo, deferred, prunedAt };
  }

  /** Copies the store as it was at the start into the copies, a chunk per transaction. */
  private async copyStore(plan: Plan, signal?: AbortSignal): Promise<void> {
    const copies: [string, string, number][] = [
      [this.live.data, plan.aside.data, plan.firstId],
      [this.live.revisions, plan.aside.revisions, plan.copiedUpTo],
    ];
    for (const [from, to, upTo] of copies) {
      for (let after = 0; after < upTo; after += COPY_CHUNK) {
        await stopIf(signal);
        await this.sql.transaction((manager) =>
          manager.query(
            `INSERT INTO "${to}" SELECT * FROM ${from} WHERE id > ? AND id <= ? ORDER BY id`,
            [after, Math.min(after + COPY_CHUNK, upTo)],
          ),
        );
      }
    }
  }

  /**
   * What the file creates and changes in the copy, by country then date: each chunk of the build
   * then adds to the end of every index led by the country, the record or the change set.
   */
  private async fileChanges(plan: Plan, given: RecordValues[]): Promise<FileChanges> {
    const records = given
      .map((record) => ({ record, key: countryKey(record.country) }))
      .sort((a, b) =>
        a.key === b.key ? compare(a.record.date, b.record.date) : compare(a.key, b.key),
      );
    const stored = new Map<string, { id: number; values: string }>();
    const countries = [...new Set(records.map((r) => r.key))];
    for (const some of listChunks(countries, IN_LIST)) {
      const rows = await this.sql.session.query<Row[]>(
        `SELECT country_key, ${RECORD_COLUMNS_SQL}
         FROM "${plan.aside.data}" WHERE country_key IN (${placeholders(some.length)})`,
        some,
      );
      for (const row of rows) {
        stored.set(`${String(row.country_key)}|${String(row.date)}`, {
          id: Number(row.id),
          values: valuesKey(recordValuesOf(row)),
        });
      }
    }
    const changes: FileChanges = { creates: [], updates: [], unchanged: 0 };
    for (const { record, key } of records) {
      const found = stored.get(`${key}|${record.date}`);
      if (!found) changes.creates.push(record);
      else if (found.values !== valuesKey(record)) {
        changes.updates.push({ id: found.id, values: record });
      } else changes.unchanged++;
    }
    return changes;
  }

  /**
   * The file's records and their revisions into the copies, a chunk per transaction: new records
   * (with the ids reserved), then changed ones, as the one-transaction path appends them. An
   * index led by the date would take a few entries in each of its pages at every chunk, and each
   * commit would write it whole again: those are created at the end, each by a transaction of
   * its own (the longest hold of the writer).
   */
  private async build(
    plan: Plan,
    file: FileChanges,
    changes: ChangeSet,
    signal?: AbortSignal,
  ): Promise<void> {
    const { creates, updates } = file;
    for (let start = 0; start < creates.length; start += BUILD_CHUNK) {
      await stopIf(signal);
      const chunk = creates.slice(start, start + BUILD_CHUNK);
      const first = plan.firstId + start + 1;
      await this.sql.transaction(async (manager) => {
        let i = 0;
        for (const rows of listChunks(chunk, RECORD_ROW)) {
          await manager.query(
            `INSERT INTO "${plan.aside.data}" (id, ${INSERT_COLUMNS})
             VALUES ${placeholders(rows.length, `(${placeholders(8)})`)}`,
            rows.flatMap((r, j) => [first + i + j, ...upsertParams(r)]),
          );
          i += rows.length;
        }
        const ids = chunk.map((_, i) => first + i);
        await changes.appendCopies(manager, plan.aside.data, 'create', ids, plan.aside.revisions);
      });
    }
    for (let start = 0; start < updates.length; start += BUILD_CHUNK) {
      await stopIf(signal);
      const chunk = updates.slice(start, start + BUILD_CHUNK);
      await this.sql.transaction(async (manager) => {
        for (const { id, values } of chunk) {
          await manager.query(
            `UPDATE "${plan.aside.data}" SET ${CHANGING_COLUMNS.map((c) => `${c} = ?`).join(', ')}
             WHERE id = ?`,
            [...CHANGING_COLUMNS.map((c) => values[c]), id],
          );
        }
        const ids = chunk.map(({ id }) => id);
        await changes.appendCopies(manager, plan.aside.data, 'update', ids, plan.aside.revisions);
      });
    }
    for (const statement of plan.deferred) {
      await stopIf(signal);
      await this.sql.transaction((manager) => manager.query(statement));
    }
  }

  /**
   * One transaction: the records other writers changed since the start (those with a revision
   * after the copied history) come over into the copy with their revisions, the copies replace the
   * live tables, and the change set is sealed. A record that the file changes too, or one that
   * takes a key the file creates: rolled back (`ChangedMeanwhile`).
   */
  private async swap(manager: SqlSession, plan: Plan, changes: ChangeSet): Promise<void> {
    const { data, revisions } = this.live;
    const meanwhile = `SELECT record_id FROM ${revisions} WHERE id > ?`;
    const [both] = await manager.query<unknown[]>(
      `SELECT 1 FROM ${revisions} l JOIN "${plan.aside.revisions}" a
         ON a.record_id = l.record_id AND a.id > ?
       WHERE l.id > ? LIMIT 1`,
      [plan.copiedUpTo, plan.copiedUpTo],
    );
    if (both) throw new ChangedMeanwhile();
    // A prune meanwhile deleted revisions the copy still holds (and recounted their commits).
    if ((await this.prunedAt(manager)) !== plan.prunedAt) throw new ChangedMeanwhile();
    await manager.query(`DELETE FROM "${plan.aside.data}" WHERE id IN (${meanwhile})`, [
      plan.copiedUpTo,
    ]);
    try {
      await manager.query(
        `INSERT INTO "${plan.aside.data}" SELECT * FROM ${data} WHERE id IN (${meanwhile})`,
        [plan.copiedUpTo],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new ChangedMeanwhile();
      throw error;
    }
    await manager.query(
      `INSERT INTO "${plan.aside.revisions}" SELECT * FROM ${revisions} WHERE id > ? ORDER BY id`,
      [plan.copiedUpTo],
    );
    const dataSeq = await lastId(manager, data);
    const revisionsSeq = await lastId(manager, revisions);
    for (const key of ['data', 'revisions'] as const) {
      await manager.query(`ALTER TABLE ${this.live[key]} RENAME TO "${plan.old[key]}"`);
      await manager.query(`ALTER TABLE "${plan.aside[key]}" RENAME TO ${this.live[key]}`);
    }
    // Ids never come back, even those taken by records created and deleted meanwhile.
    await setSequence(manager, data, Math.max(dataSeq, await lastId(manager, data)));
    await setSequence(manager, revisions, Math.max(revisionsSeq, await lastId(manager, revisions)));
    await changes.seal(manager);
  }

  private async prunedAt(manager: SqlSession): Promise<number | null> {
    const [row] = await manager.query<{ pruned_at: unknown }[]>(
      `SELECT pruned_at FROM history_horizons WHERE series = ?`,
      [this.disease],
    );
    return row ? Number(row.pruned_at) : null;
  }

  private async dropTables(tables: Tables): Promise<void> {
    await this.sql.transaction(async (manager) => {
      await manager.query(`DROP TABLE IF EXISTS "${tables.data}"`);
      await manager.query(`DROP TABLE IF EXISTS "${tables.revisions}"`);
    });
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Between two transactions: a pause longer than the longest one between two attempts of a writer
 * waiting for the lock in another process (`beginImmediate`), so that it gets in (SQLite does not
 * queue writers: without it the load would take the lock again at once, every time), then the
 * signal.
 */
async function stopIf(signal?: AbortSignal): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, LOCK_GAP_MS));
  if (signal?.aborted) throw new Error('interrupted');
}
