import { countryLookupKey } from '@app/countries';
import { SqlRunner, SqlSession, listChunks, placeholders } from '../../sql-runner';
import { NewRevision, RevisionRepository } from '../history/revision.repository';
import {
  INSERT_COLUMNS,
  IN_LIST,
  RECORD_COLUMNS_SQL,
  Row,
  recordValuesOf,
  toRecord,
  upsertParams,
  valuesKey,
  withCanonicalCountry,
} from '../record-rows';
import { ChangeOrigin, RecordValues, DiseaseDefinition } from '../disease.types';

/** What a restore did to one record. */
export type RestoreOutcome = NewRevision['kind'] | 'unchanged';

/**
 * MySQL's isolation of the single writes: a change set's closing statements (`INSERT ... SELECT`
 * over the history, decision 0036) then read without locks; at REPEATABLE READ they would take
 * next-key locks on the history and wait for every other writer's uncommitted revisions (an
 * import's, for its whole length). Each write locks the rows it changes by id.
 */
const CLOSING_ISOLATION = 'READ COMMITTED';

/**
 * The SQL of single-record writes (API create, update, delete; the CLI's restore and revert), each
 * with its revisions in the same transaction. Called by `RecordWriter` only.
 */
export class RecordWritesRepository {
  readonly table: string;

  constructor(
    private readonly sql: SqlRunner,
    definition: DiseaseDefinition,
    private readonly revisions: RevisionRepository,
  ) {
    this.table = definition.table;
  }

  /** MySQL: the revert locks the rows it reads (`FOR UPDATE`); SQLite's one writer needs none. */
  get mysql(): boolean {
    return this.sql.mysql;
  }

  /**
   * Runs the revert's `work` in one write transaction at READ COMMITTED (so that its reads see
   * every write committed before its locks), or outside any for a dry run (`write` false).
   */
  revertSession<T>(write: boolean, work: (manager: SqlSession) => Promise<T>): Promise<T> {
    if (!write) return work(this.sql.session);
    return this.sql.transaction(work, 'READ COMMITTED');
  }

  /** A new record and its `create` revision, in one transaction (one round trip on MySQL). */
  async insert(given: RecordValues, origin: ChangeOrigin): Promise<number> {
    const values = withCanonicalCountry(given);
    const [id] = await this.sql.batch([
      {
        sql: `INSERT INTO ${this.table} (${INSERT_COLUMNS}) VALUES (${placeholders(7)})`,
        params: upsertParams(values),
      },
      ...this.revisions.singleChangeStatements(origin, {
        recordIdSql: this.sql.lastInsertIdSql,
        kind: 'create',
        values,
      }),
    ]);
    if (id === undefined) throw new Error('the database answered no id for a new record');
    return id;
  }

  /**
   * Replaces every field of a record, with an `update` revision; false when the id does not
   * exist. Values equal to the stored ones write nothing (and append no revision).
   */
  async update(id: number, given: RecordValues, origin: ChangeOrigin): Promise<boolean> {
    const values = withCanonicalCountry(given);
    return this.sql.transaction(async (manager) => {
      const row = await this.lockedRow(manager, id);
      if (!row) return false;
      const stored = toRecord(row);
      if (stored.date === values.date && valuesKey(stored) === valuesKey(values)) return true;
      await this.overwrite(manager, id, values);
      const changes = this.revisions.changeSet(origin);
      await changes.append(manager, [{ recordId: id, kind: 'update', values }]);
      await changes.seal(manager);
      return true;
    }, CLOSING_ISOLATION);
  }

  /**
   * Deletes a record, with a `delete` revision; false when the id does not exist. The revision
   * keeps the values the record had (read in the transaction), so that reads as of a moment find
   * the deletion by country and date; the history still shows it without values.
   */
  async delete(id: number, origin: ChangeOrigin): Promise<boolean> {
    return this.sql.transaction(async (manager) => {
      const row = await this.lockedRow(manager, id);
      if (!row) return false;
      await this.removeIds(manager, [id]);
      const changes = this.revisions.changeSet(origin);
      await changes.append(manager, [
        { recordId: id, kind: 'delete', values: recordValuesOf(row) },
      ]);
      await changes.seal(manager);
      return true;
    }, CLOSING_ISOLATION);
  }

  /**
   * Puts records back into given states (values, or null: absent), all in one transaction: a
   * deleted record comes back with its id. Each record changed appends its revision; one already in
   * its state is left as it is. Answers what was done to each, in order.
   */
  async restore(
    states: { recordId: number; values: RecordValues | null }[],
    origin: ChangeOrigin,
  ): Promise<RestoreOutcome[]> {
    return this.sql.transaction(async (manager) => {
      const changes = this.revisions.changeSet(origin);
      const done: RestoreOutcome[] = [];
      for (const { recordId, values: given } of states) {
        const values = given && withCanonicalCountry(given);
        const row = await this.lockedRow(manager, recordId);
        const stored = row === undefined ? null : toRecord(row);
        let kind: RestoreOutcome;
        if (values === null) {
          kind = stored === null ? 'unchanged' : 'delete';
          if (kind === 'delete') await this.removeIds(manager, [recordId]);
        } else if (stored === null) {
          kind = 'create';
          await this.insertWithId(manager, recordId, values);
        } else if (stored.date === values.date && valuesKey(stored) === valuesKey(values)) {
          kind = 'unchanged';
        } else {
          kind = 'update';
          await this.overwrite(manager, recordId, values);
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
    }, CLOSING_ISOLATION);
  }

  /** Deletes the records `ids` (inside the caller's transaction). */
  async removeIds(manager: SqlSession, ids: number[]): Promise<void> {
    for (const some of listChunks(ids, IN_LIST)) {
      await manager.query(
        `DELETE FROM ${this.table} WHERE id IN (${placeholders(some.length)})`,
        some,
      );
    }
  }

  /** Inserts a record under a given id: one that comes back (inside the caller's transaction). */
  async insertWithId(manager: SqlSession, id: number, given: RecordValues): Promise<void> {
    await manager.query(
      `INSERT INTO ${this.table} (id, ${INSERT_COLUMNS}) VALUES (${placeholders(8)})`,
      [id, ...upsertParams(withCanonicalCountry(given))],
    );
  }

  /** Writes every field of the record `id` (inside the caller's transaction). */
  async overwrite(manager: SqlSession, id: number, given: RecordValues): Promise<void> {
    const assignments = INSERT_COLUMNS.split(', ').map((column) => `${column} = ?`);
    await manager.query(`UPDATE ${this.table} SET ${assignments.join(', ')} WHERE id = ?`, [
      ...upsertParams(withCanonicalCountry(given)),
      id,
    ]);
  }

  /** The records `ids` that exist, by id; locked on MySQL when `lock` (in the caller's transaction). */
  async valuesOf(
    manager: SqlSession,
    ids: number[],
    lock: boolean,
  ): Promise<Map<number, RecordValues>> {
    const found = new Map<number, RecordValues>();
    for (const some of listChunks(ids, IN_LIST)) {
      const rows = await manager.query<Row[]>(
        `SELECT ${RECORD_COLUMNS_SQL}
         FROM ${this.table} WHERE id IN (${placeholders(some.length)})
         ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
        some,
      );
      for (const row of rows) found.set(Number(row.id), recordValuesOf(row));
    }
    return found;
  }

  /**
   * The id of the record stored under the country and date of `values`, found by the unique
   * index; locked on MySQL when `lock`.
   */
  async holderOf(
    manager: SqlSession,
    values: RecordValues,
    lock: boolean,
  ): Promise<number | undefined> {
    const [row] = await manager.query<Row[]>(
      `SELECT id FROM ${this.table} WHERE country_key = ? AND date = ?${lock ? ' FOR UPDATE' : ''}`,
      [countryLookupKey(values.country), values.date],
    );
    return row ? Number(row.id) : undefined;
  }

  /** The row `id`; MySQL locks it until the transaction ends, SQLite's transaction holds the file. */
  private async lockedRow(manager: SqlSession, id: number): Promise<Row | undefined> {
    const lock = this.sql.mysql ? ' FOR UPDATE' : '';
    const [row] = await manager.query<Row[]>(
      `SELECT ${RECORD_COLUMNS_SQL} FROM ${this.table} WHERE id = ?${lock}`,
      [id],
    );
    return row;
  }
}
