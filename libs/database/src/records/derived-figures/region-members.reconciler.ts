import { DataSource } from 'typeorm';
import { SqlRunner, listChunks, placeholders } from '../../sql-runner';
import { allRegions, countryLookupKey } from '@app/countries';
import { correctionTables } from '../derived-tables';
import { COVID_DISEASE, MPOX_DISEASE } from '../disease.types';
import { REGION_MEMBERS, RegionDayStatements } from './region-day-statements';

const MEMBER_ROWS = { paramsPerItem: 2, bytesPerItem: 400, maxItems: 500 };

/** Each region's members by the code's definition (`@app/countries`), as `[region, key]` pairs. */
function expectedMembers(): [string, string][] {
  const pairs = new Set<string>();
  for (const region of allRegions()) {
    for (const member of region.members) {
      pairs.add(JSON.stringify([region.name, countryLookupKey(member.iso2)]));
    }
  }
  return [...pairs].sort().map((pair) => JSON.parse(pair) as [string, string]);
}

/**
 * Keeps `region_members` equal to the code's regions. When they differ (a first start, or a build
 * whose regions changed), the members are written again and every region's daily sums made again
 * from the records, in one transaction; otherwise nothing is written. Run with the migrations,
 * under their lock on MySQL, so that instances starting together do it once.
 */
export async function reconcileRegionMembers(dataSource: DataSource): Promise<boolean> {
  const sql = new SqlRunner(dataSource);
  const expected = expectedMembers();
  const stored = await sql.read<{ region: string; country_key: string }>(
    `SELECT region, country_key FROM ${REGION_MEMBERS}`,
  );
  const current = stored.map((row) => JSON.stringify([row.region, row.country_key])).sort();
  if (JSON.stringify(current) === JSON.stringify(expected.map((pair) => JSON.stringify(pair)))) {
    return false;
  }
  const mysql = sql.mysql;
  await sql.transaction(async (manager) => {
    await manager.query(`DELETE FROM ${REGION_MEMBERS}`);
    for (const rows of listChunks(expected, MEMBER_ROWS)) {
      await manager.query(
        `INSERT INTO ${REGION_MEMBERS} (region, country_key) VALUES ${placeholders(rows.length, '(?, ?)')}`,
        rows.flat(),
      );
    }
    for (const disease of [COVID_DISEASE, MPOX_DISEASE]) {
      const statements = new RegionDayStatements(disease.key, mysql);
      const { correctedDays } = correctionTables(disease.key);
      for (const { sql, params } of statements.rebuild(disease.table, correctedDays)) {
        await manager.query(sql, params);
      }
    }
  });
  return true;
}
