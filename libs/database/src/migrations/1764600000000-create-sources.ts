import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per downloaded source (data set and URL): what the server last answered (ETag,
 * Last-Modified, SHA-256 of the bytes) so that the next download is conditional, and how the
 * last attempt went. Times are epoch milliseconds. URLs can be long: they are found by
 * `url_hash` (SHA-256 of the URL), which keeps the unique key within MySQL's index limit.
 */
const MYSQL = `CREATE TABLE \`sources\` (
    \`id\` int NOT NULL AUTO_INCREMENT,
    \`dataset\` varchar(16) NOT NULL,
    \`url\` text NOT NULL,
    \`url_hash\` char(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    \`etag\` varchar(255) NULL,
    \`last_modified\` varchar(64) NULL,
    \`content_hash\` char(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
    \`last_attempt_at\` bigint NOT NULL,
    \`last_success_at\` bigint NULL,
    \`outcome\` varchar(16) NOT NULL,
    \`rows_inserted\` int NOT NULL DEFAULT 0,
    \`rows_updated\` int NOT NULL DEFAULT 0,
    \`last_error\` varchar(500) NULL,
    PRIMARY KEY (\`id\`),
    UNIQUE KEY \`uq_sources_dataset_url\` (\`dataset\`, \`url_hash\`)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;

const SQLITE = [
  `CREATE TABLE "sources" (
    "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
    "dataset" varchar(16) NOT NULL,
    "url" text NOT NULL,
    "url_hash" char(64) NOT NULL,
    "etag" varchar(255) NULL,
    "last_modified" varchar(64) NULL,
    "content_hash" char(64) NULL,
    "last_attempt_at" bigint NOT NULL,
    "last_success_at" bigint NULL,
    "outcome" varchar(16) NOT NULL,
    "rows_inserted" integer NOT NULL DEFAULT 0,
    "rows_updated" integer NOT NULL DEFAULT 0,
    "last_error" varchar(500) NULL
  )`,
  `CREATE UNIQUE INDEX "uq_sources_dataset_url" ON "sources" ("dataset", "url_hash")`,
];

export class CreateSources1764600000000 implements MigrationInterface {
  name = 'CreateSources1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const sql of mysql ? [MYSQL] : SQLITE) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${queryRunner.connection.driver.escape('sources')}`);
  }
}
