import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['covid_data', 'mpox_data'];
const COLUMNS = 'id, date, country, country_key, total_cases, new_cases, total_deaths, new_deaths';

/**
 * `country_key` (the country trimmed, NFC-normalised and lower-cased) from 200 to 300 characters:
 * normalisation can triple a character (U+FB2C, U+1D160), so a valid 100-character country could
 * not be stored on MySQL (a 500). SQLite ignores declared lengths, but the declared type is what
 * TypeORM compares with the entities: its tables are rebuilt, ids and sequence kept.
 */
export class WidenCountryKey1764200000000 implements MigrationInterface {
  name = 'WidenCountryKey1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await widen(queryRunner, 300);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await widen(queryRunner, 200);
  }
}

async function widen(queryRunner: QueryRunner, length: number): Promise<void> {
  for (const table of TABLES) {
    if (queryRunner.connection.options.type === 'mysql') {
      await queryRunner.query(
        `ALTER TABLE \`${table}\` MODIFY \`country_key\` varchar(${length})
         CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL`,
      );
      continue;
    }
    const copy = `${table}_rebuilt`;
    await queryRunner.query(`CREATE TABLE "${copy}" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "date" date NOT NULL,
      "country" varchar(100) NOT NULL,
      "country_key" varchar(${length}) NOT NULL,
      "total_cases" bigint NOT NULL,
      "new_cases" double NOT NULL,
      "total_deaths" bigint NOT NULL,
      "new_deaths" double NOT NULL
    )`);
    await queryRunner.query(`INSERT INTO "${copy}" (${COLUMNS}) SELECT ${COLUMNS} FROM "${table}"`);
    const [sequence] = (await queryRunner.query(`SELECT seq FROM sqlite_sequence WHERE name = ?`, [
      table,
    ])) as { seq: number }[];
    await queryRunner.query(`DROP TABLE "${table}"`);
    await queryRunner.query(`ALTER TABLE "${copy}" RENAME TO "${table}"`);
    // Ids of deleted records are not given again.
    if (sequence) {
      await queryRunner.query(`UPDATE sqlite_sequence SET seq = ? WHERE name = ?`, [
        sequence.seq,
        table,
      ]);
    }
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_${table}_country_date" ON "${table}" ("country_key", "date")`,
    );
    await queryRunner.query(`CREATE INDEX "idx_${table}_date" ON "${table}" ("date", "id")`);
  }
}
