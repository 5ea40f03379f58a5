import { randomBytes } from 'node:crypto';
import { countryKey } from '@app/common';
import {
  SqlRunner,
  SqlSession,
  SqlStatement,
  idConditions,
  listChunks,
  placeholders,
} from '../../sql-runner';
import { IN_LIMIT, Row, VALUE_COLUMNS_SQL } from '../record-rows';
import { ChangeOrigin, DiseaseDefinition } from '../disease.types';
import { CorrectionStatements, correctionTables } from './correction-statements';
import { RegionDayStatements } from '../derived-figures/region-day-statements';
import { CountrySummaryStatements } from '../country-summary-statements';
import {
  ChangeSet,
  FeedPosition,
  FeedRevision,
  NewRevision,
  StoredRevision,
  toRevision,
} from './revision.types';

export * from './revision.types';

/**
 * A change set's key: random, 62 bits, never 0 (the revisions that predate the feed), as a
 * decimal string (beyond JavaScript's safe integers). The unique index on the commits refuses a
 * repeat, which is unlikely before billions of transactions.
 */
function newChangeSetKey(): string {
  return ((randomBytes(8).readBigUInt64BE() >> 2n) + 1n).toString();
}

/** Parameters of one revision's row in an INSERT. */
const REVISION_PARAMS = 13;

/** A revision's row at most: its SQL and values, the actor included (255 characters). */
const REVISION_BYTES = 600;

/**
 * How long a gap in the commits' `seq` holds the change feed back. A gap is a commit whose `seq`
 * was taken but which is not visible yet (its transaction is committing) or never will be (it
 * rolled back after taking it): the feed stops before it until the commit after it is this old.
 */
export const FEED_GAP_GRACE_MS = 30_000;

/**
 * All SQL of one disease's history table (`<key>_revisions`): revisions are only ever appended,
 * inside the transaction of the write they describe, so a change and its revision commit together.
 */
export class RevisionRepository {
  private readonly key: string;
  private readonly table: string;
  private readonly commits: string;
  private readonly corrections: CorrectionStatements;
  private readonly regionDays: RegionDayStatements;
  private readonly countrySummaries: CountrySummaryStatements;

  /**
   * @param gapGraceMs how long the feed waits at a gap in the commits' `seq` (see `feed`).
   */
  constructor(
    private readonly sql: SqlRunner,
    definition: DiseaseDefinition,
    private readonly gapGraceMs = FEED_GAP_GRACE_MS,
  ) {
    this.key = definition.key;
    this.table = `${definition.key}_revisions`;
    this.commits = `${definition.key}_revision_commits`;
    const mysql = sql.mysql;
    this.corrections = new CorrectionStatements(correctionTables(definition.key), mysql);
    this.regionDays = new RegionDayStatements(definition.key, mysql);
    this.countrySummaries = new CountrySummaryStatements(definition.key, definition.table, mysql);
  }

  private rows(sql: string, params: unknown[]): Promise<Row[]> {
    return this.sql.read<Row>(sql, params);
  }

  /**
   * The change set of one write transaction: create it inside the transaction's work (a retried
   * transaction gets a new one), `append` its revisions, and `seal` it as the transaction's LAST
   * statement. Revisions of a change set that is never sealed are invisible to the change feed.
   * `at` (epoch ms) is the time of its revisions.
   */
  changeSet(origin: ChangeOrigin, at = Date.now()): ChangeSet {
    const key = newChangeSetKey();
    let appended = 0;
    let sealed = false;
    return {
      at,
      append: async (manager, revisions) => {
        if (sealed) throw new Error('revisions appended to a sealed change set');
        await this.insertRevisions(manager, key, origin, revisions, at);
        appended += revisions.length;
      },
      appendCopies: async (manager, table, kind, ids, into = this.table) => {
        if (sealed) throw new Error('revisions appended to a sealed change set');
        // Runs of consecutive ids as ranges (an import's new records are mostly one run),
        // scattered ones (a source's revisions) as IN lists: a few statements either way.
        for (const where of idConditions('id', ids)) {
          await manager.query(
            `INSERT INTO ${into} (record_id, at, actor, request_id, kind, ${VALUE_COLUMNS_SQL},
               country_key, change_set)
             SELECT id, ?, ?, ?, ?, ${VALUE_COLUMNS_SQL}, country_key, ? FROM ${table}
             WHERE ${where.sql} ORDER BY id`,
            [at, origin.actor, origin.requestId ?? null, kind, key, ...where.params],
          );
        }
        appended += ids.length;
      },
      seal: async (manager) => {
        if (sealed) throw new Error('a change set sealed twice');
        sealed = true;
        // A write that changed nothing leaves no commit: the feed only walks commits with revisions.
        if (appended === 0) return;
        for (const { sql, params } of this.closingStatements(key, Date.now(), appended)) {
          await manager.query(sql, params);
        }
      },
    };
  }

  private async insertRevisions(
    manager: SqlSession,
    changeSet: string,
    origin: ChangeOrigin,
    revisions: NewRevision[],
    at: number,
  ): Promise<void> {
    const cost = { paramsPerItem: REVISION_PARAMS, bytesPerItem: REVISION_BYTES, maxItems: 500 };
    for (const chunk of listChunks(revisions, cost)) {
      const { sql, params } = this.revisionsInsert(changeSet, origin, at, chunk);
      await manager.query(sql, params);
    }
  }

  /**
   * One revision as a change set of its own, sealed, as statements for `SqlRunner.batch`: the revision,
   * then its commit row (the transaction's last statement, as `seal` requires). `recordIdSql`:
   * the record's id as SQL, where the batch creates the record (`SqlRunner.lastInsertIdSql`).
   */
  singleChangeStatements(
    origin: ChangeOrigin,
    revision: NewRevision | (Omit<NewRevision, 'recordId'> & { recordIdSql: string }),
  ): SqlStatement[] {
    const key = newChangeSetKey();
    const at = Date.now();
    const recordIdSql = 'recordIdSql' in revision ? revision.recordIdSql : undefined;
    const stored = { recordId: 'recordId' in revision ? revision.recordId : 0, ...revision };
    return [
      this.revisionsInsert(key, origin, at, [stored], recordIdSql),
      ...this.closingStatements(key, at, 1),
    ];
  }

  /**
   * A change set's last statements: what reads need of it kept in the write's own transaction,
   * so that they never derive it from the history (its corrections, the regions' daily sums,
   * each country's count and dates),
   * then its commit row, the very last.
   */
  private closingStatements(key: string, at: number, revisions: number): SqlStatement[] {
    return [
      ...this.corrections.ofChangeSet(key),
      ...this.regionDays.ofChangeSet(key),
      ...this.countrySummaries.ofChangeSet(key),
      {
        sql: `INSERT INTO ${this.commits} (change_set, at, revisions, corrected)
          SELECT ?, ?, ?, CASE WHEN EXISTS (SELECT 1 FROM ${this.key}_corrections
            WHERE change_set = ?) THEN 1 ELSE 0 END`,
        params: [key, at, revisions, key],
      },
    ];
  }

  /** The INSERT of `revisions`; `recordIdSql` stands for the record id of each, if given. */
  private revisionsInsert(
    changeSet: string,
    origin: ChangeOrigin,
    at: number,
    revisions: NewRevision[],
    recordIdSql?: string,
  ): SqlStatement {
    const row = `(${recordIdSql ?? '?'}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
    return {
      sql: `INSERT INTO ${this.table} (record_id, at, actor, request_id, kind, ${VALUE_COLUMNS_SQL},
         country_key, change_set) VALUES ${placeholders(revisions.length, row)}`,
      params: revisions.flatMap(({ recordId, kind, values }) => [
        ...(recordIdSql ? [] : [recordId]),
        at,
        origin.actor,
        origin.requestId ?? null,
        kind,
        values?.date ?? null,
        values?.country ?? null,
        values?.total_cases ?? null,
        values?.new_cases ?? null,
        values?.total_deaths ?? null,
        values?.new_deaths ?? null,
        values === null ? null : countryKey(values.country),
        changeSet,
      ]),
    };
  }

  /**
   * The records that `actor` (its name ignoring case) changed at `since` (epoch ms) or later, by
   * id; through `manager`, inside its transaction, if given.
   */
  async recordsChangedBy(
    actor: string,
    since: number,
    manager: SqlSession = this.sql.session,
  ): Promise<number[]> {
    const rows = await manager.query<Row[]>(
      `SELECT DISTINCT record_id FROM ${this.table} WHERE LOWER(actor) = LOWER(?) AND at >= ?
       ORDER BY record_id`,
      [actor, since],
    );
    return rows.map((row) => Number(row.record_id));
  }

  /** A record's revisions, oldest first; none for an id that never existed. */
  async ofRecord(recordId: number): Promise<StoredRevision[]> {
    const rows = await this.rows(
      `SELECT id, record_id, at, actor, request_id, kind, ${VALUE_COLUMNS_SQL} FROM ${this.table}
       WHERE record_id = ? ORDER BY id`,
      [recordId],
    );
    return rows.map(toRevision);
  }

  /** The revisions of the records `ids`, oldest first, by record; through `manager`. */
  async ofRecords(manager: SqlSession, ids: number[]): Promise<Map<number, StoredRevision[]>> {
    const byRecord = new Map<number, StoredRevision[]>(ids.map((id) => [id, []]));
    for (let start = 0; start < ids.length; start += IN_LIMIT) {
      const some = ids.slice(start, start + IN_LIMIT);
      const rows = await manager.query<Row[]>(
        `SELECT id, record_id, at, actor, request_id, kind, ${VALUE_COLUMNS_SQL} FROM ${this.table}
         WHERE record_id IN (${some.map(() => '?').join(', ')}) ORDER BY record_id, id`,
        some,
      );
      for (const row of rows) byRecord.get(Number(row.record_id))?.push(toRevision(row));
    }
    return byRecord;
  }

  /**
   * The moment before which the history was pruned (`RevisionPruner`): reads as of an earlier one
   * cannot be answered. Null while it is whole.
   */
  async keptSince(): Promise<number | null> {
    const [row] = await this.rows(`SELECT pruned_before FROM history_horizons WHERE series = ?`, [
      this.key,
    ]);
    return row ? Number(row.pruned_before) : null;
  }

  /** At least as many as the revisions of the table (ids count from 1), read from the index. */
  async upperCount(): Promise<number> {
    const [row] = await this.rows(`SELECT MAX(id) AS top FROM ${this.table}`, []);
    return Number(row?.top ?? 0);
  }

  /**
   * The records as they stood at `asOf` (epoch ms), as a derived table `t` with the data table's
   * columns: each record's latest revision at that instant, unless it was a deletion. Both
   * databases merge it into the query that reads it, so that query's filters on `country_key`
   * and `date` pick the candidates by index first; each is then kept only if no later revision of
   * its record precedes `asOf` (a seek in the `(record_id, id)` index).
   */
  asOfTable(asOf: number): { sql: string; params: unknown[] } {
    return {
      sql: `(SELECT r.record_id AS id, r.${VALUE_COLUMNS_SQL.replace(/, /g, ', r.')}, r.country_key
         FROM ${this.table} r
         WHERE r.at <= ? AND r.kind <> 'delete' AND NOT EXISTS (
           SELECT 1 FROM ${this.table} n WHERE n.record_id = r.record_id AND n.id > r.id AND n.at <= ?)
       ) t`,
      params: [asOf, asOf],
    };
  }

  /**
   * At most `limit` revisions of the change feed, in the order their transactions committed
   * (commit `seq`, then revision id within a transaction): those after `after`, else from the
   * first commit made at `since` (epoch ms) or later, else from the start. Keyset reads only, so
   * a page at the end of a long feed costs what the first does.
   *
   * It stops before a gap in `seq` (an earlier commit not yet visible) unless the commit after
   * the gap is older than the grace: a gap that old is a rolled-back commit, never to come.
   */
  async feed(
    start: { after?: FeedPosition; since?: number },
    limit: number,
    now = Date.now(),
  ): Promise<FeedRevision[]> {
    const page: FeedRevision[] = [];
    let seq = 0;
    if (start.after) {
      seq = start.after.seq;
      page.push(...(await this.commitRevisions(seq, start.after.id, limit)));
    } else if (start.since !== undefined) {
      const [first] = await this.rows(
        `SELECT seq FROM ${this.commits} WHERE at >= ? ORDER BY at, seq LIMIT 1`,
        [start.since],
      );
      if (!first) return page;
      seq = Number(first.seq) - 1;
    }
    let wanted = limit - page.length;
    if (wanted === 0) return page;
    // Commits emptied by `prune-history` are skipped, not taken for gaps (`emptiedBetween`).
    const commits = await this.rows(
      `SELECT seq, at, revisions FROM ${this.commits} WHERE seq > ? AND revisions > 0
       ORDER BY seq LIMIT ?`,
      [seq, wanted],
    );
    const whole: number[] = [];
    let partial: number | undefined;
    for (const commit of commits) {
      const next = Number(commit.seq);
      if (
        next !== seq + 1 &&
        Number(commit.at) > now - this.gapGraceMs &&
        !(await this.emptiedBetween(seq, next))
      ) {
        break;
      }
      const count = Number(commit.revisions);
      seq = next;
      if (count > wanted) {
        partial = next;
        break;
      }
      whole.push(next);
      wanted -= count;
      if (wanted === 0) break;
    }
    // Ascending: the lists' answers follow one another in the feed's order.
    for (const some of listChunks(whole, { paramsPerItem: 1 })) {
      page.push(
        ...(await this.feedRows(
          `c.seq IN (${placeholders(some.length)}) ORDER BY c.seq, r.id`,
          some,
        )),
      );
    }
    if (partial !== undefined) page.push(...(await this.commitRevisions(partial, 0, wanted)));
    return page;
  }

  /** Whether every commit between `seq` and `next` is there, emptied by a prune: no gap. */
  private async emptiedBetween(seq: number, next: number): Promise<boolean> {
    const [row] = await this.rows(
      `SELECT COUNT(*) AS count FROM ${this.commits} WHERE seq > ? AND seq < ?`,
      [seq, next],
    );
    return Number(row?.count ?? 0) === next - seq - 1;
  }

  /** The revisions of commit `seq` after revision `afterId`, `limit` at most. */
  private commitRevisions(seq: number, afterId: number, limit: number): Promise<FeedRevision[]> {
    return this.feedRows('c.seq = ? AND r.id > ? ORDER BY r.id LIMIT ?', [seq, afterId, limit]);
  }

  private async feedRows(where: string, params: unknown[]): Promise<FeedRevision[]> {
    const rows = await this.rows(
      // No request id: the feed does not show it.
      `SELECT c.seq, r.id, r.record_id, r.at, r.actor, r.kind,
         r.date, r.country, r.total_cases, r.new_cases, r.total_deaths, r.new_deaths
       FROM ${this.commits} c JOIN ${this.table} r ON r.change_set = c.change_set
       WHERE ${where}`,
      params,
    );
    return rows.map((row) => ({ ...toRevision(row), seq: Number(row.seq) }));
  }
}
