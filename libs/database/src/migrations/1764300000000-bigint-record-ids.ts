import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['covid_data', 'mpox_data'];

/**
 * Record ids from INT to BIGINT on MySQL. `INSERT ... ON DUPLICATE KEY UPDATE` (bulk writes and
 * CLI imports) takes an AUTO_INCREMENT value for every row, updated ones included: each re-import
 * of the JHU file uses up 225,171 ids, so a script that re-sends every record every hour would
 * exhaust a signed INT (2^31 - 1) within a year, after which every new record fails. MySQL keeps
 * the table's AUTO_INCREMENT counter through the change. SQLite's INTEGER PRIMARY KEY is 64-bit
 * already: nothing to do there (see `AppDataSource`).
 */
export class BigintRecordIds1764300000000 implements MigrationInterface {
  name = 'BigintRecordIds1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await setIdType(queryRunner, 'bigint');
  }

  /** Fails if an id no longer fits in an INT. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await setIdType(queryRunner, 'int');
  }
}

async function setIdType(queryRunner: QueryRunner, type: 'bigint' | 'int'): Promise<void> {
  if (queryRunner.connection.options.type !== 'mysql') return;
  for (const table of TABLES) {
    await queryRunner.query(
      `ALTER TABLE \`${table}\` MODIFY \`id\` ${type} NOT NULL AUTO_INCREMENT`,
    );
  }
}
