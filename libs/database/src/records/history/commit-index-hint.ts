/**
 * MariaDB's hint that finds each commit joined to a read by its unique `change_set` index: with
 * few commits its planner joins them through a join buffer instead, comparing every row read with
 * every commit in range (decision 0056). Empty on SQLite, which joins by the index.
 */
export function commitIndexHint(key: string, mysql: boolean): string {
  return mysql ? ` FORCE INDEX (uq_${key}_revision_commits_change_set)` : '';
}
