import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Client tokens issued by the admin command line. Only the SHA-256 of a token is stored, with a
 * short non-secret prefix to recognise it. Times are epoch milliseconds (the same on both
 * drivers). `revision` grows with every create, rotate or revoke (never with `last_used_at`), so
 * that API instances detect a change with one cheap `MAX(revision)` query.
 */
const MYSQL = `CREATE TABLE \`api_tokens\` (
    \`id\` int NOT NULL AUTO_INCREMENT,
    \`client\` varchar(64) NOT NULL,
    \`token_hash\` char(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    \`prefix\` varchar(16) NOT NULL,
    \`created_at\` bigint NOT NULL,
    \`last_used_at\` bigint NULL,
    \`revoked_at\` bigint NULL,
    \`expires_at\` bigint NULL,
    \`revision\` bigint NOT NULL,
    PRIMARY KEY (\`id\`),
    UNIQUE KEY \`uq_api_tokens_hash\` (\`token_hash\`),
    KEY \`idx_api_tokens_client\` (\`client\`),
    KEY \`idx_api_tokens_revision\` (\`revision\`)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;

const SQLITE = [
  `CREATE TABLE "api_tokens" (
    "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
    "client" varchar(64) NOT NULL,
    "token_hash" char(64) NOT NULL,
    "prefix" varchar(16) NOT NULL,
    "created_at" bigint NOT NULL,
    "last_used_at" bigint NULL,
    "revoked_at" bigint NULL,
    "expires_at" bigint NULL,
    "revision" bigint NOT NULL
  )`,
  `CREATE UNIQUE INDEX "uq_api_tokens_hash" ON "api_tokens" ("token_hash")`,
  `CREATE INDEX "idx_api_tokens_client" ON "api_tokens" ("client")`,
  `CREATE INDEX "idx_api_tokens_revision" ON "api_tokens" ("revision")`,
];

export class CreateApiTokens1764000000000 implements MigrationInterface {
  name = 'CreateApiTokens1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const sql of mysql ? [MYSQL] : SQLITE) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${queryRunner.connection.driver.escape('api_tokens')}`);
  }
}
