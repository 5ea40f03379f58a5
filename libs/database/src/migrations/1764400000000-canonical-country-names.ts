import { MigrationInterface, QueryRunner } from 'typeorm';
import { countryKey } from '@app/common';
import { resolveCountry } from '@app/countries';

const TABLES = ['covid_data', 'mpox_data'];

interface StoredName {
  country_key: string;
  country: string;
}

interface StoredRecord {
  id: number | string;
  date: string;
  country: string;
  total_cases: number | string;
  new_cases: number;
  total_deaths: number | string;
  new_deaths: number;
}

/**
 * Stores every recognised country under its canonical name (`US`, `United States of America` ->
 * `United States`; `libs/countries`). Where two stored spellings become one country and both have
 * a record for the same date, the most recently written one (the highest id) is kept and each
 * other one is logged as a warning with its values, then deleted. Places that are not countries
 * are left as they are. Works per distinct name, not per record.
 */
export class CanonicalCountryNames1764400000000 implements MigrationInterface {
  name = 'CanonicalCountryNames1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await canonicalise(queryRunner, table);
  }

  async down(): Promise<void> {
    // The source spellings are not kept: nothing to restore.
  }
}

async function canonicalise(queryRunner: QueryRunner, table: string): Promise<void> {
  const logger = queryRunner.connection.logger;
  const names = (await queryRunner.query(
    `SELECT DISTINCT country_key, country FROM ${table}`,
  )) as StoredName[];
  const present = new Set(names.map((n) => n.country_key));
  /** Per canonical name: the stored keys that become it, and whether any row is spelt otherwise. */
  const groups = new Map<string, { keys: Set<string>; renamed: boolean }>();
  for (const { country_key: key, country } of names) {
    const identity = resolveCountry(country);
    if (!identity) continue;
    const group = groups.get(identity.name) ?? { keys: new Set<string>(), renamed: false };
    group.keys.add(key);
    group.renamed ||= country !== identity.name;
    groups.set(identity.name, group);
  }
  for (const [canonical, group] of groups) {
    const target = countryKey(canonical);
    if (present.has(target)) group.keys.add(target);
    const keys = [...group.keys];
    if (keys.length === 1 && keys[0] === target && !group.renamed) continue;
    const placeholders = keys.map(() => '?').join(', ');
    if (keys.length > 1) {
      const duplicates = (await queryRunner.query(
        `SELECT id, date, country, total_cases, new_cases, total_deaths, new_deaths FROM ${table}
         WHERE country_key IN (${placeholders}) AND date IN (
           SELECT date FROM ${table} WHERE country_key IN (${placeholders})
           GROUP BY date HAVING COUNT(*) > 1)
         ORDER BY date, id DESC`,
        [...keys, ...keys],
      )) as StoredRecord[];
      const dropped: StoredRecord[] = [];
      let date = '';
      for (const record of duplicates) {
        if (String(record.date) === date) dropped.push(record);
        date = String(record.date);
      }
      for (const record of dropped) {
        logger.log(
          'warn',
          `${table}: record ${record.id} (${record.country}, ${String(record.date)}, total_cases ` +
            `${record.total_cases}, new_cases ${record.new_cases}, total_deaths ` +
            `${record.total_deaths}, new_deaths ${record.new_deaths}) dropped: ${canonical} has a ` +
            'more recently written record for that date',
        );
      }
      for (let i = 0; i < dropped.length; i += 500) {
        const ids = dropped.slice(i, i + 500).map((r) => r.id);
        await queryRunner.query(
          `DELETE FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')})`,
          ids,
        );
      }
    }
    await queryRunner.query(
      `UPDATE ${table} SET country = ?, country_key = ? WHERE country_key IN (${placeholders})`,
      [canonical, target, ...keys],
    );
    logger.logMigration(
      `${table}: ${[...new Set(names.filter((n) => group.keys.has(n.country_key)).map((n) => n.country))].join(', ')} stored as ${canonical}`,
    );
  }
}
