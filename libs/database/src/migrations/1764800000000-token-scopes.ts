import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each client may do, stored on each of its token rows like its rate limit: a comma-separated
 * scope list. Tokens issued before scopes existed could do everything, so they keep every scope
 * (written out, so that `tokens list` shows it and an administrator can narrow it).
 */
const EVERY_SCOPE = 'covid:read,covid:write,mpox:read,mpox:write,sources:read,metrics:read';

export class TokenScopes1764800000000 implements MigrationInterface {
  name = 'TokenScopes1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE api_tokens ADD scopes varchar(255) NOT NULL DEFAULT ''");
    await queryRunner.query('UPDATE api_tokens SET scopes = ?', [EVERY_SCOPE]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_tokens DROP COLUMN scopes');
  }
}
