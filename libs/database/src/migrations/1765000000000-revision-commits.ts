import { MigrationInterface, QueryRunner } from 'typeorm';

const DISEASES = ['covid', 'mpox'];

/**
 * The change feed's order (docs/decisions/0024-change-feed-order.md). Each write transaction
 * tags its revisions with a change set key (`change_set`, random, chosen by the writer) and, as
 * its last statement, adds one row to `<key>_revision_commits`: `seq` is taken just before the
 * commit, so it follows the order in which transactions commit, which the revisions' own ids do
 * not on MySQL. Revisions that exist now form change set 0, one commit.
 */
function mysqlStatements(key: string): string[] {
  const revisions = `${key}_revisions`;
  const commits = `${key}_revision_commits`;
  return [
    `ALTER TABLE \`${revisions}\` ADD COLUMN \`change_set\` bigint NOT NULL DEFAULT 0,
       ADD KEY \`idx_${revisions}_change_set\` (\`change_set\`, \`id\`)`,
    `CREATE TABLE \`${commits}\` (
      \`seq\` bigint NOT NULL AUTO_INCREMENT,
      \`change_set\` bigint NOT NULL,
      \`at\` bigint NOT NULL,
      \`revisions\` int NOT NULL,
      PRIMARY KEY (\`seq\`),
      UNIQUE KEY \`uq_${commits}_change_set\` (\`change_set\`),
      KEY \`idx_${commits}_at\` (\`at\`)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  ];
}

function sqliteStatements(key: string): string[] {
  const revisions = `${key}_revisions`;
  const commits = `${key}_revision_commits`;
  return [
    `ALTER TABLE "${revisions}" ADD COLUMN "change_set" bigint NOT NULL DEFAULT 0`,
    `CREATE INDEX "idx_${revisions}_change_set" ON "${revisions}" ("change_set", "id")`,
    `CREATE TABLE "${commits}" (
      "seq" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "change_set" bigint NOT NULL,
      "at" bigint NOT NULL,
      "revisions" integer NOT NULL
    )`,
    `CREATE UNIQUE INDEX "uq_${commits}_change_set" ON "${commits}" ("change_set")`,
    `CREATE INDEX "idx_${commits}_at" ON "${commits}" ("at")`,
  ];
}

export class RevisionCommits1765000000000 implements MigrationInterface {
  name = 'RevisionCommits1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      for (const sql of mysql ? mysqlStatements(key) : sqliteStatements(key)) {
        await queryRunner.query(sql);
      }
      const [existing] = (await queryRunner.query(
        `SELECT COUNT(*) AS count, MAX(at) AS at FROM ${key}_revisions`,
      )) as { count: number | string; at: unknown }[];
      if (Number(existing.count) > 0) {
        await queryRunner.query(
          `INSERT INTO ${key}_revision_commits (change_set, at, revisions) VALUES (0, ?, ?)`,
          [Number(existing.at), Number(existing.count)],
        );
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      const revisions = `${key}_revisions`;
      await queryRunner.query(`DROP TABLE ${key}_revision_commits`);
      if (mysql) {
        await queryRunner.query(
          `ALTER TABLE \`${revisions}\` DROP KEY \`idx_${revisions}_change_set\`, DROP COLUMN \`change_set\``,
        );
      } else {
        await queryRunner.query(`DROP INDEX "idx_${revisions}_change_set"`);
        await queryRunner.query(`ALTER TABLE "${revisions}" DROP COLUMN "change_set"`);
      }
    }
  }
}
