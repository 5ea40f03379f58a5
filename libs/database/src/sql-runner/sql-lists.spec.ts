import { DataSource } from 'typeorm';
import {
  MAX_OR_TERMS,
  idConditions,
  itemsPerStatement,
  listChunks,
  placeholders,
} from './sql-lists';

/** `count` distinct ids in 1..`top`, none next to another (scattered), from a fixed seed. */
function scattered(count: number, top: number): number[] {
  let seed = 42;
  const ids = new Set<number>();
  while (ids.size < count) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 1;
    const id = 2 * (seed % Math.floor(top / 2)) + 1;
    ids.add(id);
  }
  return [...ids];
}

describe('sql-lists', () => {
  describe('listChunks', () => {
    it('keeps every item, in order, in chunks of at most 1,000 by default', () => {
      const items = Array.from({ length: 2_345 }, (_, i) => i);
      const chunks = listChunks(items, { paramsPerItem: 1 });
      expect(chunks.map((c) => c.length)).toEqual([1_000, 1_000, 345]);
      expect(chunks.flat()).toEqual(items);
    });

    it('bounds the items by bound parameters, statement size and the caller maximum', () => {
      expect(itemsPerStatement({ paramsPerItem: 13, maxItems: 500 })).toBe(500);
      // 32,766 parameters at most (SQLite's limit, under MySQL's 65,535).
      expect(itemsPerStatement({ paramsPerItem: 100, maxItems: 10_000 })).toBe(327);
      expect(itemsPerStatement({ paramsPerItem: 2, fixedParams: 32_700, maxItems: 100 })).toBe(33);
      // 1 MiB per statement at most (under MySQL's max_allowed_packet).
      expect(itemsPerStatement({ paramsPerItem: 1, bytesPerItem: 2_000 })).toBe(524);
    });

    it('refuses a list whose single item cannot fit', () => {
      expect(() => itemsPerStatement({ paramsPerItem: 7, fixedParams: 32_760 })).toThrow(
        'does not fit',
      );
    });

    it('answers no chunk for no item', () => {
      expect(listChunks([], { paramsPerItem: 7 })).toEqual([]);
    });
  });

  it('placeholders: values or rows', () => {
    expect(placeholders(3)).toBe('?, ?, ?');
    expect(placeholders(2, '(?, ?)')).toBe('(?, ?), (?, ?)');
  });

  describe('idConditions', () => {
    it('long runs of consecutive ids become ranges, other ids IN lists, never mixed', () => {
      const run = (first: number, length: number) => Array.from({ length }, (_, i) => first + i);
      expect(idConditions('id', [7, 1, 2, 3, 9, 10, 5])).toEqual([
        { sql: 'id IN (?, ?, ?, ?, ?, ?, ?)', params: [1, 2, 3, 5, 7, 9, 10] },
      ]);
      expect(idConditions('id', [...run(100, 16), 5, ...run(200, 20), 300])).toEqual([
        { sql: 'id IN (?)', params: [5] },
        { sql: '(id BETWEEN ? AND ? OR id BETWEEN ? AND ?)', params: [100, 115, 200, 219] },
        { sql: 'id IN (?)', params: [300] },
      ]);
      expect(idConditions('id', [4])).toEqual([{ sql: 'id IN (?)', params: [4] }]);
      expect(idConditions('id', [])).toEqual([]);
    });

    it('bounds each condition, and covers ascending segments of the ids', () => {
      const runs = Array.from({ length: 250 }, (_, i) => [100 * i, 100 * i + 19]);
      const ids = runs.flatMap(([first, last]) =>
        Array.from({ length: last - first + 1 }, (_, k) => first + k),
      );
      const conditions = idConditions('id', ids);
      expect(conditions).toHaveLength(3);
      for (const { sql } of conditions) {
        expect(sql.split(' OR ').length).toBeLessThanOrEqual(MAX_OR_TERMS);
      }
      expect(conditions.flatMap((c) => c.params)).toEqual(runs.flat());
      const singles = idConditions('id', scattered(2_500, 100_000), 1_000);
      expect(singles.map((c) => c.params.length)).toEqual([1_000, 1_000, 500]);
    });

    // The limit is SQLite's own: the same ids as one OR chain per 1,000 ranges (what the
    // history's copies used) fail, every condition here runs and matches exactly the ids.
    it('matches exactly the ids on SQLite, where an OR chain of them is too deep', async () => {
      const db = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
      await db.initialize();
      try {
        await db.query(`CREATE TABLE t (id INTEGER PRIMARY KEY)`);
        await db.query(
          `WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n WHERE id < 20000)
           INSERT INTO t (id) SELECT id FROM n`,
        );
        const ids = [
          ...scattered(3_000, 20_000),
          ...Array.from({ length: 500 }, (_, i) => 10_000 + 2 * i),
          ...Array.from({ length: 300 }, (_, i) => 15_000 + i),
        ];
        const chain = ids.slice(0, 1_000).map(() => 'id BETWEEN ? AND ?');
        const pairs = ids.slice(0, 1_000).flatMap((id) => [id, id]);
        await expect(
          db.query(`SELECT id FROM t WHERE ${chain.join(' OR ')}`, pairs),
        ).rejects.toThrow('Expression tree is too large');
        const found: number[] = [];
        for (const { sql, params } of idConditions('id', ids)) {
          const rows = await db.query<{ id: number }[]>(
            `SELECT id FROM t WHERE ${sql} ORDER BY id`,
            params,
          );
          found.push(...rows.map((row) => row.id));
        }
        expect(found).toEqual([...new Set(ids)].sort((a, b) => a - b));
      } finally {
        await db.destroy();
      }
    });
  });
});
