import { MigrationInterface, QueryRunner } from 'typeorm';

const DISEASES = ['covid', 'mpox'];

const VALUES = [
  'date',
  'country',
  'country_key',
  'total_cases',
  'new_cases',
  'total_deaths',
  'new_deaths',
];

/**
 * The indexes of reads as of an instant (docs/decisions/0025-as-of-reads.md): a country's revisions
 * by date, and all revisions by date, both in the lists' order (date, then record id).
 */
function indexes(table: string): [name: string, columns: string][] {
  return [
    [`idx_${table}_country_date`, 'country_key, date, record_id'],
    [`idx_${table}_date`, 'date, record_id'],
  ];
}

/**
 * Deletions' revisions had no values: each gets those of its record's previous revision (what the
 * record held when it was deleted), as deletions now keep them, so that reads as of an instant find
 * them by country and date like any other revision.
 */
function backfill(table: string, mysql: boolean): string {
  const previous = `SELECT x.id AS did, MAX(q.id) AS pid
      FROM ${table} x JOIN ${table} q ON q.record_id = x.record_id AND q.id < x.id
      WHERE x.kind = 'delete' AND x.date IS NULL GROUP BY x.id`;
  if (mysql) {
    return `UPDATE ${table} d JOIN (${previous}) m ON m.did = d.id JOIN ${table} p ON p.id = m.pid
      SET ${VALUES.map((c) => `d.${c} = p.${c}`).join(', ')}`;
  }
  return `UPDATE ${table} AS d SET ${VALUES.map((c) => `${c} = p.${c}`).join(', ')}
    FROM (${previous}) m JOIN ${table} p ON p.id = m.pid
    WHERE d.id = m.did`;
}

export class RevisionAsOf1765100000000 implements MigrationInterface {
  name = 'RevisionAsOf1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      const table = `${key}_revisions`;
      await queryRunner.query(backfill(table, mysql));
      for (const [name, columns] of indexes(table)) {
        await queryRunner.query(
          mysql
            ? `ALTER TABLE ${table} ADD INDEX ${name} (${columns})`
            : `CREATE INDEX ${name} ON ${table} (${columns})`,
        );
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      const table = `${key}_revisions`;
      for (const [name] of indexes(table)) {
        await queryRunner.query(mysql ? `DROP INDEX ${name} ON ${table}` : `DROP INDEX ${name}`);
      }
    }
  }
}
