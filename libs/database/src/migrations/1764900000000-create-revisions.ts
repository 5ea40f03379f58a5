import { MigrationInterface, QueryRunner } from 'typeorm';

const DISEASES = ['covid', 'mpox'];

/**
 * The history of every record, one append-only table per disease beside its data table: one row
 * (a revision) per change, with the values after it (none for a deletion), when (epoch ms), who
 * (the client's name, `import:<file or URL>`, `sync:<URL>`, `cli:<command>`) and on whose request
 * (the request id or the import id). `id` orders the revisions of the whole table.
 */
function mysqlTable(table: string): string {
  return `CREATE TABLE \`${table}\` (
    \`id\` bigint NOT NULL AUTO_INCREMENT,
    \`record_id\` bigint NOT NULL,
    \`at\` bigint NOT NULL,
    \`actor\` varchar(255) NOT NULL,
    \`request_id\` varchar(128) NULL,
    \`kind\` varchar(6) NOT NULL,
    \`date\` date NULL,
    \`country\` varchar(100) NULL,
    \`country_key\` varchar(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    \`total_cases\` bigint NULL,
    \`new_cases\` double NULL,
    \`total_deaths\` bigint NULL,
    \`new_deaths\` double NULL,
    PRIMARY KEY (\`id\`),
    KEY \`idx_${table}_record\` (\`record_id\`, \`id\`)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;
}

function sqliteTable(table: string): string[] {
  return [
    `CREATE TABLE "${table}" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "record_id" bigint NOT NULL,
      "at" bigint NOT NULL,
      "actor" varchar(255) NOT NULL,
      "request_id" varchar(128) NULL,
      "kind" varchar(6) NOT NULL,
      "date" date NULL,
      "country" varchar(100) NULL,
      "country_key" varchar(300) NULL,
      "total_cases" bigint NULL,
      "new_cases" double NULL,
      "total_deaths" bigint NULL,
      "new_deaths" double NULL
    )`,
    `CREATE INDEX "idx_${table}_record" ON "${table}" ("record_id", "id")`,
  ];
}

/** Records that exist now get one baseline revision each, so that every record has a history. */
function baseline(table: string, data: string, at: number): string {
  return `INSERT INTO ${table} (record_id, at, actor, request_id, kind, date, country, country_key,
      total_cases, new_cases, total_deaths, new_deaths)
    SELECT id, ${at}, 'migration:baseline', NULL, 'create', date, country, country_key,
      total_cases, new_cases, total_deaths, new_deaths
    FROM ${data} ORDER BY id`;
}

export class CreateRevisions1764900000000 implements MigrationInterface {
  name = 'CreateRevisions1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const at = Date.now();
    for (const key of DISEASES) {
      const table = `${key}_revisions`;
      for (const sql of mysql ? [mysqlTable(table)] : sqliteTable(table)) {
        await queryRunner.query(sql);
      }
      await queryRunner.query(baseline(table, `${key}_data`, at));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const key of DISEASES) {
      await queryRunner.query(
        `DROP TABLE ${queryRunner.connection.driver.escape(`${key}_revisions`)}`,
      );
    }
  }
}
