import { EntityManager } from 'typeorm';
import { listChunks, placeholders } from '../../sql-lists';
import { ChangeSet } from '../history/revision.repository';
import { CHANGING_COLUMNS, IN_LIST, Row, UpsertCounts } from '../record-rows';
import { RecordValues, SeriesRecord } from '../series.types';
import { BulkStrategy } from './bulk-strategy';
import { BulkChange, BulkStatements, RECORD_ROW, nextChunk } from './bulk-statements';

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
   * New records upserted by key, changed ones updated by id. An upsert of a stored key takes an
   * exclusive next-key lock on it, which covers the gap before it: while a source restated its
   * series, every API insert next to any of its keys waited for the import's commit. Rows updated
   * by id are locked alone. A record deleted by another writer since it was read is created again,
   * as the upsert did. Revisions are appended, not copied: an INSERT ... SELECT takes InnoDB's
   * table-level AUTO-INC lock for the whole statement (innodb_autoinc_lock_mode 1), which held
   * every API write's revision back.
   */
  async writeEachOnce(
    manager: EntityManager,
    changed: BulkChange[],
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
    await this.statements.writeChunks(manager, creates, signal);
    await this.updateByIds(manager, kept, signal);
    const createdIds = await this.statements.idsOf(manager, creates, new Map());
    await changes.append(manager, [
      ...creates.map(({ key, values }) => ({
        recordId: createdIds(key),
        kind: 'create' as const,
        values,
      })),
      ...kept.map(({ id, values }) => ({ recordId: id, kind: 'update' as const, values })),
    ]);
  }

  /** Locks the rows `ids` that still exist (record locks only) and answers them. */
  private async lockRows(manager: EntityManager, ids: number[]): Promise<Set<number>> {
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
    manager: EntityManager,
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
