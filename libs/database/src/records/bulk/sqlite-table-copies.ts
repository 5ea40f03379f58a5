import { SqlSession } from '../../sql-runner';

/** Index names alternate between the canonical name and this suffix at each swap. */
const SWAPPED_INDEX_SUFFIX = '__b';

/** A disease's data table and its history, live or copied (`SqliteCopySwapLoad`). */
export interface Tables {
  data: string;
  revisions: string;
}

/** The tables that loads built aside or swapped out, with the time in their name. */
export async function leftovers(
  manager: SqlSession,
  live: Tables,
): Promise<{ name: string; kind: 'load' | 'old'; since: number }[]> {
  const names = await manager.query<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type = 'table'`,
  );
  const pattern = new RegExp(`^(?:${live.data}|${live.revisions})__(load|old)_(\\d+)$`);
  return names.flatMap(({ name }) => {
    const match = pattern.exec(name);
    return match ? [{ name, kind: match[1] as 'load' | 'old', since: Number(match[2]) }] : [];
  });
}

/**
 * The statements that create `copy` with the columns and indexes of `table` (index names
 * alternate with a suffix: they are unique in the file): `now`, and `later` the indexes led by
 * the date (see `build`). Null for a schema this does not know how to copy.
 */
export async function copyStatements(
  manager: SqlSession,
  table: string,
  copy: string,
): Promise<{ now: string[]; later: string[] } | null> {
  const schema = await manager.query<{ type: string; name: string; sql: string }[]>(
    `SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL`,
    [table],
  );
  const now: string[] = [];
  const later: string[] = [];
  for (const { type, name, sql } of schema) {
    if (type === 'table') {
      const match = /^CREATE TABLE\s+("?)\w+\1\s*\(/i.exec(sql);
      if (!match) return null;
      now.unshift(`CREATE TABLE "${copy}" (${sql.slice(match[0].length)}`);
    } else {
      const match = /^CREATE (UNIQUE )?INDEX\s+("?)\w+\2\s+ON\s+("?)\w+\3\s*\(/i.exec(sql);
      if (!match) return null;
      const columns = sql.slice(match[0].length);
      const swapped = name.endsWith(SWAPPED_INDEX_SUFFIX)
        ? name.slice(0, -SWAPPED_INDEX_SUFFIX.length)
        : `${name}${SWAPPED_INDEX_SUFFIX}`;
      const statement = `CREATE ${match[1] ?? ''}INDEX "${swapped}" ON "${copy}" (${columns}`;
      (/^\s*"?date"?\s*[,)]/i.test(columns) ? later : now).push(statement);
    }
  }
  if (!now[0]?.startsWith('CREATE TABLE')) return null;
  return { now, later };
}

/** The last id `table` gave (AUTOINCREMENT's counter), or its largest, if larger. */
export async function lastId(manager: SqlSession, table: string): Promise<number> {
  const [row] = await manager.query<{ last: number | null }[]>(
    `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = ?), 0),
            COALESCE((SELECT MAX(id) FROM "${table}"), 0)) AS last`,
    [table],
  );
  return Number(row?.last ?? 0);
}

export async function setSequence(manager: SqlSession, table: string, seq: number): Promise<void> {
  const [row] = await manager.query<unknown[]>(`SELECT 1 FROM sqlite_sequence WHERE name = ?`, [
    table,
  ]);
  await manager.query(
    row
      ? `UPDATE sqlite_sequence SET seq = ? WHERE name = ?`
      : `INSERT INTO sqlite_sequence (seq, name) VALUES (?, ?)`,
    [seq, table],
  );
}
