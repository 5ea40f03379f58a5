import { SqlSession, listChunks, placeholders } from '../../sql-runner';
import { WriteRaceLostError, isUniqueViolation } from '../../database-errors';
import { ChangeSet } from '../history/revision.repository';
import {
  CHANGING_COLUMNS,
  INSERT_COLUMNS,
  IN_LIST,
  Row,
  UpsertCounts,
  upsertParams,
  valuesKey,
} from '../record-rows';
import { RecordValues, StoredRecord } from '../disease.types';
import { BulkStrategy } from './bulk-strategy';
import { BulkChange, BulkStatements, RECORD_ROW, nextChunk } from './bulk-statements';

/**
 * Rounds of a write whose keys other writers keep creating or deleting under it, before it gives
 * up (`WriteRaceLostError`). A test seam: the race tests lower it to reach the give-up at once.
 */
export const BULK_RACE_LIMIT = { rounds: 5 };

/** A change of a record stored under `id`. */
type Update = BulkChange & { id: number };

/** MySQL's bulk writes: row locks only, the records compared inside the transaction. */
export class MysqlBulkStrategy implements BulkStrategy {
  constructor(private readonly statements: BulkStatements) {}

  /** MySQL locks rows, not the file: everything is written in the transaction. */
  beforeTransaction(
    records: RecordValues[],
  ): Promise<{ pending: RecordValues[]; unchanged: number }> {
    return Promise.resolve({ pending: records, unchanged: 0 });
  }

  /**
   * Changed records are updated by id, new ones inserted (never upserted). An upsert of a stored
   * key takes an exclusive next-key lock on it, which covers the gap before it: while a source
   * restated its records, every API insert next to any of its keys waited for the import's commit.
   * Rows updated by id are locked alone. The keys were read without locks (READ COMMITTED), so
   * other writers may have changed them since; each write is then what it would have been after
   * theirs: a record deleted meanwhile is created again, a key created meanwhile is updated (or
   * left as it is when it holds these values). An upsert there counted, and kept in the history,
   * a second creation, which a revert of it then deleted.
   * Revisions are appended, not copied: an INSERT ... SELECT takes InnoDB's table-level AUTO-INC
   * lock for the whole statement (innodb_autoinc_lock_mode 1), which held every API write's
   * revision back.
   */
  async writeEachOnce(
    manager: SqlSession,
    changed: BulkChange[],
    stored: Map<string, StoredRecord>,
    changes: ChangeSet,
    counts: UpsertCounts,
    signal?: AbortSignal,
  ): Promise<void> {
    let creates = changed.filter((c) => c.kind === 'create');
    let updates: Update[] = changed
      .filter((c) => c.kind === 'update')
      .map((c) => ({ ...c, id: Number(stored.get(c.key)?.id) }));
    const kept: Update[] = [];
    const created: BulkChange[] = [];
    for (let round = 1; creates.length > 0 || updates.length > 0; round++) {
      if (round > BULK_RACE_LIMIT.rounds) throw new WriteRaceLostError();
      const present = await this.lockRows(
        manager,
        updates.map((u) => u.id),
      );
      for (const update of updates) {
        if (present.has(update.id)) {
          kept.push(update);
        } else {
          creates.push({ ...update, kind: 'create' });
          counts.updated--;
          counts.inserted++;
        }
      }
      const taken = await this.insertNew(manager, creates, created, signal);
      updates = [];
      creates = [];
      for (const { change, found } of taken) {
        counts.inserted--;
        if (valuesKey(found) === valuesKey(change.values)) {
          counts.unchanged++;
          continue;
        }
        counts.updated++;
        updates.push({ ...change, kind: 'update', id: Number(found.id) });
      }
    }
    await this.updateByIds(manager, kept, signal);
    const createdIds = await this.statements.idsOf(manager, created, new Map());
    await changes.append(manager, [
      ...created.map(({ key, values }) => ({
        recordId: createdIds(key),
        kind: 'create' as const,
        values,
      })),
      ...kept.map(({ id, values }) => ({ recordId: id, kind: 'update' as const, values })),
    ]);
  }

  /**
   * Inserts `creates` by chunks, adding those inserted to `created`; answers those whose key
   * another writer created since it was read, with what that key holds. InnoDB waits for that
   * writer's commit, then fails the whole statement (the transaction goes on): the chunk is read
   * again and the rest of it inserted.
   */
  private async insertNew(
    manager: SqlSession,
    creates: BulkChange[],
    created: BulkChange[],
    signal?: AbortSignal,
  ): Promise<{ change: BulkChange; found: StoredRecord }[]> {
    const taken: { change: BulkChange; found: StoredRecord }[] = [];
    for (const chunk of listChunks(creates, RECORD_ROW)) {
      await nextChunk(signal);
      let rest = chunk;
      while (rest.length > 0) {
        try {
          await manager.query(
            `INSERT INTO ${this.statements.table} (${INSERT_COLUMNS})
             VALUES ${placeholders(rest.length, `(${placeholders(7)})`)}`,
            rest.flatMap((c) => upsertParams(c.values)),
          );
          created.push(...rest);
          break;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          const found = await this.statements.storedRecords(
            manager,
            rest.map((c) => c.values),
          );
          if (found.size === 0) throw error;
          for (const change of rest) {
            const record = found.get(change.key);
            if (record) taken.push({ change, found: record });
          }
          rest = rest.filter((c) => !found.has(c.key));
        }
      }
    }
    return taken;
  }

  /** Locks the rows `ids` that still exist (record locks only) and answers them. */
  private async lockRows(manager: SqlSession, ids: number[]): Promise<Set<number>> {
    const present = new Set<number>();
    for (const some of listChunks(ids, IN_LIST)) {
      const rows = await manager.query<Row[]>(
        `SELECT id FROM ${this.statements.table} WHERE id IN (${placeholders(some.length)}) FOR UPDATE`,
        some,
      );
      for (const row of rows) present.add(Number(row.id));
    }
    return present;
  }

  /** Writes each record's values over the row `id`, by chunks (one statement each). */
  private async updateByIds(
    manager: SqlSession,
    updates: { id: number; values: RecordValues }[],
    signal?: AbortSignal,
  ): Promise<void> {
    const columns = CHANGING_COLUMNS;
    for (const chunk of listChunks(updates, RECORD_ROW)) {
      await nextChunk(signal);
      const first = `SELECT ? AS id, ${columns.map((c) => `? AS ${c}`).join(', ')}`;
      const rest = ` UNION ALL SELECT ${['?', ...columns.map(() => '?')].join(', ')}`;
      await manager.query(
        `UPDATE ${this.statements.table} d JOIN (${first}${rest.repeat(chunk.length - 1)}) v ON d.id = v.id
         SET ${columns.map((c) => `d.${c} = v.${c}`).join(', ')}`,
        chunk.flatMap(({ id, values }) => [id, ...columns.map((c) => values[c])]),
      );
    }
  }
}
