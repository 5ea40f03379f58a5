import { MigrationInterface, QueryRunner } from 'typeorm';
import { CorrectionStatements, correctionTables } from '../records/history/correction-statements';

const DISEASES = ['covid', 'mpox'];

/**
 * Corrections kept as rows, written by each write in its own transaction (decision 0036), so that
 * `/corrections` and the `corrected` flags cost what they answer, not what the history holds.
 * Existing stores get the corrections of their whole history once, here.
 */
function mysqlStatements(key: string): string[] {
  const { corrections, correctedDays } = correctionTables(key);
  const commits = `${key}_revision_commits`;
  const figures = (prefix: string) =>
    `\`${prefix}total_cases\` bigint NULL, \`${prefix}new_cases\` double NULL,
     \`${prefix}total_deaths\` bigint NULL, \`${prefix}new_deaths\` double NULL,`;
  return [
    `CREATE TABLE \`${corrections}\` (
      \`revision_id\` bigint NOT NULL,
      \`part\` smallint NOT NULL,
      \`change_set\` bigint NOT NULL,
      \`request_id\` varchar(128) NULL,
      \`at\` bigint NOT NULL,
      \`actor\` varchar(255) NOT NULL,
      \`kind\` varchar(7) NOT NULL,
      \`date\` date NOT NULL,
      \`country\` varchar(100) NOT NULL,
      \`country_key\` varchar(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      ${figures('old_')}
      ${figures('new_')}
      \`figures\` smallint NOT NULL,
      PRIMARY KEY (\`revision_id\`, \`part\`),
      KEY \`idx_${corrections}_change_set\` (\`change_set\`, \`revision_id\`, \`part\`),
      KEY \`idx_${corrections}_place\` (\`country_key\`, \`date\`),
      KEY \`idx_${corrections}_request\` (\`request_id\`)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
    `CREATE TABLE \`${correctedDays}\` (
      \`country_key\` varchar(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      \`date\` date NOT NULL,
      \`first_at\` bigint NOT NULL,
      PRIMARY KEY (\`country_key\`, \`date\`)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
    `ALTER TABLE \`${commits}\` ADD COLUMN \`corrected\` smallint NOT NULL DEFAULT 0,
       ADD KEY \`idx_${commits}_corrected\` (\`corrected\`, \`seq\`)`,
  ];
}

function sqliteStatements(key: string): string[] {
  const { corrections, correctedDays } = correctionTables(key);
  const commits = `${key}_revision_commits`;
  const figures = (prefix: string) =>
    `"${prefix}total_cases" bigint NULL, "${prefix}new_cases" double NULL,
     "${prefix}total_deaths" bigint NULL, "${prefix}new_deaths" double NULL,`;
  return [
    `CREATE TABLE "${corrections}" (
      "revision_id" bigint NOT NULL,
      "part" smallint NOT NULL,
      "change_set" bigint NOT NULL,
      "request_id" varchar(128) NULL,
      "at" bigint NOT NULL,
      "actor" varchar(255) NOT NULL,
      "kind" varchar(7) NOT NULL,
      "date" date NOT NULL,
      "country" varchar(100) NOT NULL,
      "country_key" varchar(300) NOT NULL,
      ${figures('old_')}
      ${figures('new_')}
      "figures" smallint NOT NULL,
      PRIMARY KEY ("revision_id", "part")
    )`,
    `CREATE INDEX "idx_${corrections}_change_set" ON "${corrections}" ("change_set", "revision_id", "part")`,
    `CREATE INDEX "idx_${corrections}_place" ON "${corrections}" ("country_key", "date")`,
    `CREATE INDEX "idx_${corrections}_request" ON "${corrections}" ("request_id")`,
    `CREATE TABLE "${correctedDays}" (
      "country_key" varchar(300) NOT NULL,
      "date" date NOT NULL,
      "first_at" bigint NOT NULL,
      PRIMARY KEY ("country_key", "date")
    )`,
    `ALTER TABLE "${commits}" ADD COLUMN "corrected" smallint NOT NULL DEFAULT 0`,
    `CREATE INDEX "idx_${commits}_corrected" ON "${commits}" ("corrected", "seq")`,
  ];
}

export class KeptCorrections1765600000000 implements MigrationInterface {
  name = 'KeptCorrections1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      for (const sql of mysql ? mysqlStatements(key) : sqliteStatements(key)) {
        await queryRunner.query(sql);
      }
      const tables = correctionTables(key);
      const statements = new CorrectionStatements(tables, mysql);
      for (const { sql, params } of [
        statements.departures('1 = 1', []),
        statements.arrivals('1 = 1', []),
        statements.days('1 = 1', []),
      ]) {
        await queryRunner.query(sql, params);
      }
      await queryRunner.query(
        `UPDATE ${key}_revision_commits SET corrected = 1
         WHERE change_set IN (SELECT change_set FROM ${tables.corrections})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      const { corrections, correctedDays } = correctionTables(key);
      const commits = `${key}_revision_commits`;
      await queryRunner.query(`DROP TABLE ${corrections}`);
      await queryRunner.query(`DROP TABLE ${correctedDays}`);
      if (mysql) {
        await queryRunner.query(
          `ALTER TABLE ${commits} DROP INDEX idx_${commits}_corrected, DROP COLUMN corrected`,
        );
      } else {
        await queryRunner.query(`DROP INDEX idx_${commits}_corrected`);
        await queryRunner.query(`ALTER TABLE ${commits} DROP COLUMN corrected`);
      }
    }
  }
}
