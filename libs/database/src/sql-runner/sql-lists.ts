/**
 * Every SQL statement built from a list (ids, keys, rows) is cut here into statements that stay
 * within both databases' limits, whatever the list's length or shape. The limits are the stricter
 * of the two databases':
 * - bound parameters per statement: SQLite's SQLITE_MAX_VARIABLE_NUMBER (32,766; MySQL: 65,535);
 * - expression depth: SQLite's SQLITE_MAX_EXPR_DEPTH (1,000): an `a OR b OR ...` chain is one level
 *   per term, where an `IN (...)` list of any length is one;
 * - statement size: MySQL's max_allowed_packet (16 MiB by default on MariaDB, 4 MiB on old MySQL;
 *   1 MiB is kept as the budget, far below either).
 */
export const SQL_LIMITS = {
  params: 32_766,
  exprDepth: 1_000,
  bytes: 1 << 20,
} as const;

/** Items per statement when nothing else bounds them: a statement's work stays short. */
const DEFAULT_MAX_ITEMS = 1_000;

/**
 * `a OR b` terms per statement: well under the depth limit, with room for the rest of the
 * statement around the chain.
 */
export const MAX_OR_TERMS = 100;

export interface ListCost {
  /** Bound parameters each item adds to the statement. */
  paramsPerItem: number;
  /** Bound parameters the statement has besides its list. */
  fixedParams?: number;
  /** At most how many bytes each item adds to the statement (SQL and values): 64 if not given. */
  bytesPerItem?: number;
  /** At most this many items per statement (1,000 if not given). */
  maxItems?: number;
}

/** How many items of `cost` one statement may hold. */
export function itemsPerStatement(cost: ListCost): number {
  const { paramsPerItem, fixedParams = 0, bytesPerItem = 64, maxItems = DEFAULT_MAX_ITEMS } = cost;
  const byParams = Math.floor((SQL_LIMITS.params - fixedParams) / Math.max(paramsPerItem, 1));
  const byBytes = Math.floor(SQL_LIMITS.bytes / Math.max(bytesPerItem, 1));
  const most = Math.min(maxItems, byParams, byBytes);
  if (most < 1) throw new Error('one item of this list does not fit in a statement');
  return most;
}

/** `items` in order, cut into lists that each fit in one statement of `cost`. */
export function listChunks<T>(items: readonly T[], cost: ListCost): T[][] {
  const size = itemsPerStatement(cost);
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    chunks.push(items.slice(start, start + size));
  }
  return chunks;
}

/** `count` placeholders (`?, ?, ?`), or `count` copies of `row` (`(?, ?), (?, ?)`). */
export function placeholders(count: number, row = '?'): string {
  return Array.from({ length: count }, () => row).join(', ');
}

/** A condition on an integer column and its bound values. */
export interface SqlCondition {
  sql: string;
  params: number[];
}

/**
 * Runs shorter than this are matched id by id: SQLite reads an `IN` list and a chain of ranges
 * well apart, and markedly slower mixed in one `OR` (a revision of scattered records copies
 * each run of two or three neighbours).
 */
export const MIN_RANGE = 16;

/**
 * A condition matching exactly `ids` on `column`, as statements' worth: ascending, runs of at
 * least `MIN_RANGE` consecutive ids as `BETWEEN` ranges (an import's new records are mostly one
 * run), other ids in `IN (...)` lists; each condition either one list or ranges alone, with at
 * most `MAX_OR_TERMS` ranges and `maxIds` single ids, so that scattered ids (a source revising 1%
 * of its rows) cost a few statements, never a deep one. Each condition covers ids above the
 * previous one's: ordering by the column keeps `ids`' order.
 */
export function idConditions(
  column: string,
  ids: readonly number[],
  maxIds = DEFAULT_MAX_ITEMS,
): SqlCondition[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const id of sorted) {
    const run = runs[runs.length - 1];
    if (run && id === run[1] + 1) run[1] = id;
    else runs.push([id, id]);
  }
  const singleMax = Math.min(maxIds, SQL_LIMITS.params);
  const conditions: SqlCondition[] = [];
  let singles: number[] = [];
  let ranges: [number, number][] = [];
  const flush = () => {
    if (singles.length > 0) {
      conditions.push({ sql: `${column} IN (${placeholders(singles.length)})`, params: singles });
    } else if (ranges.length > 0) {
      const terms = ranges.map(() => `${column} BETWEEN ? AND ?`);
      conditions.push({
        sql: terms.length === 1 ? terms[0] : `(${terms.join(' OR ')})`,
        params: ranges.flat(),
      });
    }
    singles = [];
    ranges = [];
  };
  for (const [first, last] of runs) {
    if (last - first + 1 < MIN_RANGE) {
      if (ranges.length > 0) flush();
      for (let id = first; id <= last; id++) {
        if (singles.length === singleMax) flush();
        singles.push(id);
      }
    } else {
      if (singles.length > 0 || ranges.length === MAX_OR_TERMS) flush();
      ranges.push([first, last]);
    }
  }
  flush();
  return conditions;
}
