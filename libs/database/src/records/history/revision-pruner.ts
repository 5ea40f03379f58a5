import { IN_LIST } from '../record-rows';
import { DiseaseDefinition } from '../disease.types';
import { SqlRunner, SqlSession, listChunks, placeholders } from '../../sql-runner';

/** Revision ids looked at per transaction: each holds SQLite's only writer briefly. */
const PRUNE_CHUNK = 10_000;

/** What `prune` removed, or would remove. */
export interface PruneCounts {
  /** Revisions superseded before the moment (removed). */
  revisions: number;
  /** Commits of the change feed left with no revision (kept, skipped by the feed). */
  commits: number;
}

/**
 * Bounds one disease's history (`prune-history`): removes every revision made before a moment
 * that a later revision, also made before it, supersedes. Each record keeps the revision that
 * held at that moment and every later one, so reads as of that moment or later answer as before;
 * earlier ones are refused from then on (the horizon, `RevisionRepository.keptSince`). The change
 * feed still mirrors the store: only superseded changes leave it. Records themselves are
 * untouched. Runs in short transactions: an interrupted prune leaves a consistent history, pruned
 * in part. Each one that deletes notes the time (`pruned_at`): a load built aside meanwhile
 * (`SqliteLoadAside`) would bring the deleted revisions back, and goes the usual way instead.
 */
export class RevisionPruner {
  private readonly table: string;
  private readonly commits: string;

  constructor(
    private readonly sql: SqlRunner,
    private readonly definition: DiseaseDefinition,
  ) {
    this.table = `${definition.key}_revisions`;
    this.commits = `${definition.key}_revision_commits`;
  }

  /**
   * Prunes before `before` (epoch ms, not in the future); with `dryRun`, only counts. The horizon
   * is set first (never moved back), so that no read as of an earlier moment sees a history
   * being pruned.
   */
  async prune(before: number, dryRun: boolean): Promise<PruneCounts> {
    const counts: PruneCounts = { revisions: 0, commits: 0 };
    const [top] = await this.sql.read<{ top: unknown }>(`SELECT MAX(id) AS top FROM ${this.table}`);
    const last = Number(top?.top ?? 0);
    if (!dryRun) await this.sql.transaction((m) => this.setHorizon(m, before));
    for (let after = 0; after < last; after += PRUNE_CHUNK) {
      const upTo = Math.min(after + PRUNE_CHUNK, last);
      if (dryRun) {
        counts.revisions += (await this.superseded(this.sql.session, before, after, upTo)).length;
        continue;
      }
      await this.sql.transaction(async (manager) => {
        const removed = await this.superseded(manager, before, after, upTo);
        counts.revisions += removed.length;
        if (removed.length === 0) return;
        counts.commits += await this.remove(manager, removed);
        await manager.query(`UPDATE history_horizons SET pruned_at = ? WHERE series = ?`, [
          Date.now(),
          this.definition.key,
        ]);
      });
    }
    return counts;
  }

  /** The revisions with ids in (after, upTo] made before `before` and superseded before it. */
  private async superseded(
    manager: SqlSession,
    before: number,
    after: number,
    upTo: number,
  ): Promise<{ id: number; changeSet: string }[]> {
    const rows = await manager.query<{ id: unknown; change_set: unknown }[]>(
      // Change set keys take 62 bits: read as text, never as a JavaScript number.
      `SELECT r.id, CAST(r.change_set AS CHAR) AS change_set FROM ${this.table} r
       WHERE r.id > ? AND r.id <= ? AND r.at < ? AND EXISTS (
         SELECT 1 FROM ${this.table} n WHERE n.record_id = r.record_id AND n.id > r.id AND n.at < ?)`,
      [after, upTo, before, before],
    );
    return rows.map((row) => ({ id: Number(row.id), changeSet: String(row.change_set) }));
  }

  /** Deletes `revisions` and recounts their commits; answers the commits left empty. */
  private async remove(
    manager: SqlSession,
    revisions: { id: number; changeSet: string }[],
  ): Promise<number> {
    const bySet = new Map<string, number>();
    for (const { changeSet } of revisions) bySet.set(changeSet, (bySet.get(changeSet) ?? 0) + 1);
    for (const some of listChunks(revisions, IN_LIST)) {
      const ids = some.map((r) => r.id);
      await manager.query(
        `DELETE FROM ${this.table} WHERE id IN (${placeholders(ids.length)})`,
        ids,
      );
    }
    let emptied = 0;
    for (const [changeSet, count] of bySet) {
      await manager.query(
        `UPDATE ${this.commits} SET revisions = revisions - ? WHERE change_set = ?`,
        [count, changeSet],
      );
      const [left] = await manager.query<{ revisions: unknown }[]>(
        `SELECT revisions FROM ${this.commits} WHERE change_set = ?`,
        [changeSet],
      );
      // Kept, empty: a missing `seq` would hold the feed back as a commit still to come.
      if (left && Number(left.revisions) <= 0) emptied++;
    }
    return emptied;
  }

  private async setHorizon(manager: SqlSession, before: number): Promise<void> {
    const disease = this.definition.key;
    const [row] = await manager.query<{ pruned_before: unknown }[]>(
      `SELECT pruned_before FROM history_horizons WHERE series = ?`,
      [disease],
    );
    if (!row) {
      await manager.query(
        `INSERT INTO history_horizons (series, pruned_before, pruned_at) VALUES (?, ?, ?)`,
        [disease, before, Date.now()],
      );
    } else if (Number(row.pruned_before) < before) {
      await manager.query(
        `UPDATE history_horizons SET pruned_before = ?, pruned_at = ? WHERE series = ?`,
        [before, Date.now(), disease],
      );
    }
  }
}
