import { SqlRunner, SqlSession } from '../../sql-runner';
import { ChangeSet, RevisionRepository } from '../history/revision.repository';
import { UpsertCounts, valuesKey, withCanonicalCountry } from '../record-rows';
import { ChangeOrigin, RecordValues, DiseaseDefinition } from '../disease.types';
import { BulkStrategy } from './bulk-strategy';
import { BulkChange, BulkStatements, keyOf } from './bulk-statements';
import { MysqlBulkStrategy } from './mysql-bulk.strategy';
import { SqliteBulkStrategy } from './sqlite-bulk.strategy';

/**
 * The bulk load engine of one disease's table (the API's bulk writes, imports): inserts or
 * updates by country and date in one transaction, with one strategy per database for what each
 * does its own way. Called by `RecordWriter` only.
 */
export class BulkLoadRepository {
  private readonly statements: BulkStatements;
  private readonly strategy: BulkStrategy;
  private readonly mysql: boolean;

  constructor(
    private readonly sql: SqlRunner,
    definition: DiseaseDefinition,
    private readonly revisions: RevisionRepository,
  ) {
    this.mysql = sql.mysql;
    this.statements = new BulkStatements(definition.table, this.mysql);
    this.strategy = this.mysql
      ? new MysqlBulkStrategy(this.statements)
      : new SqliteBulkStrategy(sql, this.statements, this.revisions, definition.key);
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
    const { pending, unchanged, loaded } = await this.strategy.beforeTransaction(
      canonical,
      origin,
      signal,
    );
    if (loaded) return { ...loaded, unchanged: loaded.unchanged + unchanged };
    // Concurrent bulk writes over the same keys can deadlock on MySQL: the runner's transaction
    // runs the victim again.
    const counts = await this.upsertOnce(pending, origin, signal);
    return { ...counts, unchanged: counts.unchanged + unchanged };
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
    return this.sql.transaction(async (manager) => {
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
    }, 'READ COMMITTED');
  }

  /**
   * MySQL: `ANALYZE TABLE` (InnoDB samples a few pages per index). The server keeps the index
   * statistics it read when it opened the table; after an import into a table that was nearly
   * empty then, it reads the whole index for the latest record per country instead of a loose
   * index scan, ten and more times slower, until the table is analysed or closed. SQLite: nothing
   * to do, its queries walk the index themselves.
   */
  async refreshStatistics(): Promise<void> {
    if (!this.mysql) return;
    await this.sql.read(`ANALYZE TABLE ${this.statements.table}`);
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
    const work = async (manager: SqlSession): Promise<UpsertCounts> => {
      const changes = this.revisions.changeSet(origin);
      const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
      await this.applyChunk(manager, records, changes, counts, signal);
      if (signal?.aborted) throw new Error('interrupted');
      await changes.seal(manager);
      return counts;
    };
    return this.sql.transaction(work, 'READ COMMITTED');
  }

  /**
   * Writes what differs from the stored records and appends its revisions to `changes`, adding to
   * `counts`. Two reads whatever the size: the stored records of the keys written, then (MySQL)
   * the ids of the records created.
   */
  private async applyChunk(
    manager: SqlSession,
    records: RecordValues[],
    changes: ChangeSet,
    counts: UpsertCounts,
    signal?: AbortSignal,
  ): Promise<void> {
    if (records.length === 0) return;
    const stored = await this.statements.storedRecords(manager, records);
    // What each key holds once the records before it are written (a batch may name a key twice).
    const written = new Map<string, { id?: number; values: string }>();
    const changed: BulkChange[] = [];
    for (const record of records) {
      const key = keyOf(record);
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
    // A key written twice: its first write as any other (other writers may have created or
    // deleted it meanwhile), then the rest over the row this write now holds, each keeping the
    // values it wrote.
    const seen = new Set<string>();
    const firsts: BulkChange[] = [];
    const later: BulkChange[] = [];
    for (const change of changed) {
      (seen.has(change.key) ? later : firsts).push(change);
      seen.add(change.key);
    }
    await this.strategy.writeEachOnce(manager, firsts, stored, changes, counts, signal);
    if (later.length === 0) return;
    await this.statements.writeChunks(manager, later, signal);
    const ids = await this.statements.idsOf(manager, later, new Map());
    await changes.append(
      manager,
      later.map(({ key, values }) => ({ recordId: ids(key), kind: 'update' as const, values })),
    );
  }
}
