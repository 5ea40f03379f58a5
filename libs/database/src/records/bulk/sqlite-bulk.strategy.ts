import { SqlRunner, SqlSession, listChunks, placeholders } from '../../sql-runner';
import { ChangeSet, RevisionRepository } from '../history/revision.repository';
import { INSERT_COLUMNS, UpsertCounts, upsertParams, valuesKey } from '../record-rows';
import { ChangeOrigin, RecordValues, StoredRecord } from '../disease.types';
import { BulkStrategy } from './bulk-strategy';
import { BulkChange, BulkStatements, RECORD_ROW, keyOf, nextChunk } from './bulk-statements';
import { COPY_SWAP_MIN, SqliteCopySwapLoad } from './sqlite-copy-swap-load';

/** Records in a batch from which SQLite compares them with the stored ones before writing. */
const COMPARE_FIRST_MIN = 1000;

/** SQLite's bulk writes: one writer for the whole file, so it is held as briefly as can be. */
export class SqliteBulkStrategy implements BulkStrategy {
  /** A large load, without holding the only writer all along. */
  private readonly copySwap: SqliteCopySwapLoad;

  constructor(
    private readonly sql: SqlRunner,
    private readonly statements: BulkStatements,
    private readonly revisions: RevisionRepository,
    disease: string,
  ) {
    this.copySwap = new SqliteCopySwapLoad(
      sql.unbounded,
      { data: statements.table, revisions: `${disease}_revisions` },
      disease,
    );
  }

  /**
   * The records equal to the stored ones are left out before the write lock is taken; then many
   * records to create or change (a first load, a source restating its records) in a store whose history is not
   * much larger, each key once, are written on copies and swapped in (`SqliteCopySwapLoad`).
   */
  async beforeTransaction(
    records: RecordValues[],
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<{ pending: RecordValues[]; unchanged: number; loaded?: UpsertCounts }> {
    const { pending, unchanged } = await this.withoutUnchanged(records);
    if (pending.length < COPY_SWAP_MIN) return { pending, unchanged };
    if (new Set(pending.map(keyOf)).size < pending.length) return { pending, unchanged };
    const loaded = await this.copySwap.run(pending, this.revisions.changeSet(origin), signal);
    return loaded ? { pending: [], unchanged, loaded } : { pending, unchanged };
  }

  /**
   * A large batch (a whole file): the records equal to the stored ones, compared before the
   * write lock is taken, so that a sync re-reading a whole file holds SQLite's only writer just
   * for what changed. Equal then means written then by the file: an API write that changes such
   * a record meanwhile simply comes after the file. A key named twice is left to the transaction
   * (its last values win). Run in the process's write queue, so that the read never sees another
   * write of this process half done.
   */
  private async withoutUnchanged(
    records: RecordValues[],
  ): Promise<{ pending: RecordValues[]; unchanged: number }> {
    if (records.length < COMPARE_FIRST_MIN) return { pending: records, unchanged: 0 };
    const stored = await this.sql.exclusive(() =>
      this.statements.storedRecords(this.sql.session, records),
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

  /** Each record once: its revision is a copy of the row written, made by the database. */
  async writeEachOnce(
    manager: SqlSession,
    changed: BulkChange[],
    stored: Map<string, StoredRecord>,
    changes: ChangeSet,
    _counts: UpsertCounts,
    signal?: AbortSignal,
  ): Promise<void> {
    const creates = changed.filter((c) => c.kind === 'create');
    const updates = changed.filter((c) => c.kind === 'update');
    const created = await this.insertAll(manager, creates, signal);
    await this.statements.writeChunks(manager, updates, signal);
    await changes.appendCopies(manager, this.statements.table, 'create', created);
    const updatedIds = updates.map(({ key }) => Number(stored.get(key)?.id));
    await changes.appendCopies(manager, this.statements.table, 'update', updatedIds);
  }

  /**
   * Inserts new records and answers their ids, in order: plain inserts, whose ids follow the
   * statement's last one (the transaction is the only writer, and ids only grow).
   */
  private async insertAll(
    manager: SqlSession,
    creates: { values: RecordValues }[],
    signal?: AbortSignal,
  ): Promise<number[]> {
    const ids: number[] = [];
    for (const some of listChunks(creates, RECORD_ROW)) {
      await nextChunk(signal);
      const chunk = some.map((c) => c.values);
      const rows = placeholders(chunk.length, `(${placeholders(7)})`);
      const last = Number(
        await manager.query(
          `INSERT INTO ${this.statements.table} (${INSERT_COLUMNS}) VALUES ${rows}`,
          chunk.flatMap(upsertParams),
        ),
      );
      for (let id = last - chunk.length + 1; id <= last; id++) ids.push(id);
    }
    return ids;
  }
}
