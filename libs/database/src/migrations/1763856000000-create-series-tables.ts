import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['covid_data', 'mpox_data'];

function mysqlTable(table: string): string {
  return `CREATE TABLE \`${table}\` (
    \`id\` int NOT NULL AUTO_INCREMENT,
    \`date\` date NOT NULL,
    \`country\` varchar(100) NOT NULL,
    \`country_key\` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    \`total_cases\` bigint NOT NULL,
    \`new_cases\` double NOT NULL,
    \`total_deaths\` bigint NOT NULL,
    \`new_deaths\` double NOT NULL,
    PRIMARY KEY (\`id\`),
    UNIQUE KEY \`uq_${table}_country_date\` (\`country_key\`, \`date\`),
    KEY \`idx_${table}_date\` (\`date\`, \`id\`)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;
}

function sqliteTable(table: string): string[] {
  return [
    `CREATE TABLE "${table}" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "date" date NOT NULL,
      "country" varchar(100) NOT NULL,
      "country_key" varchar(200) NOT NULL,
      "total_cases" bigint NOT NULL,
      "new_cases" double NOT NULL,
      "total_deaths" bigint NOT NULL,
      "new_deaths" double NOT NULL
    )`,
    `CREATE UNIQUE INDEX "uq_${table}_country_date" ON "${table}" ("country_key", "date")`,
    `CREATE INDEX "idx_${table}_date" ON "${table}" ("date", "id")`,
  ];
}

/** One table per disease, same shape; indexes serve (country, date) look-ups and date ordering. */
export class CreateSeriesTables1763856000000 implements MigrationInterface {
  name = 'CreateSeriesTables1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const table of TABLES) {
      const statements = mysql ? [mysqlTable(table)] : sqliteTable(table);
      for (const sql of statements) await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES)
      await queryRunner.query(`DROP TABLE ${queryRunner.connection.driver.escape(table)}`);
  }
}
