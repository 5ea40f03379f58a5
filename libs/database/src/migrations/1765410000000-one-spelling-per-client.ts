import { MigrationInterface, QueryRunner } from 'typeorm';

type Row = Record<string, unknown>;

/**
 * Client names match ignoring case, but `tokens rotate PARTNER` stored a token of `Partner` as
 * `PARTNER`: two rate-limit budgets, writes recorded under two actors. Every token of a client
 * takes the spelling of its oldest token, and so do the actors of its revisions.
 */
export class OneSpellingPerClient1765410000000 implements MigrationInterface {
  name = 'OneSpellingPerClient1765410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query(
      'SELECT client FROM api_tokens ORDER BY created_at, id',
    )) as Row[];
    const first = new Map<string, string>();
    const split = new Set<string>();
    for (const { client } of rows) {
      const name = String(client);
      const known = first.get(name.toLowerCase());
      if (known === undefined) first.set(name.toLowerCase(), name);
      else if (known !== name) split.add(known);
    }
    if (split.size === 0) return;
    // MySQL's collation (utf8mb4_unicode_ci) matches ignoring case; SQLite is told to.
    const same = (column: string) =>
      queryRunner.connection.options.type === 'mysql'
        ? `${column} = ?`
        : `${column} = ? COLLATE NOCASE`;
    const [{ revision }] = (await queryRunner.query(
      'SELECT COALESCE(MAX(revision), 0) + 1 AS revision FROM api_tokens',
    )) as Row[];
    for (const name of split) {
      await queryRunner.query(
        `UPDATE api_tokens SET client = ?, revision = ? WHERE ${same('client')}`,
        [name, Number(revision), name],
      );
      for (const table of ['covid_revisions', 'mpox_revisions']) {
        await queryRunner.query(`UPDATE ${table} SET actor = ? WHERE ${same('actor')}`, [
          name,
          name,
        ]);
      }
    }
  }

  async down(): Promise<void> {
    // The other spellings are not kept: nothing to undo.
  }
}
