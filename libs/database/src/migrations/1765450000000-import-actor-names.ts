import { MigrationInterface, QueryRunner } from 'typeorm';
import { ImportVia, importActor } from '@app/common';

const DISEASES = ['covid', 'mpox'];

/**
 * Imports' and syncs' actors named their source whole: a URL's query string and credentials (a
 * signed URL's signature), a file's folder on the server. Each becomes what imports now record
 * (`importActor`): `import:` or `sync:` and the source's name, within the column's size. The
 * commits hold no actor; the `sources` table keeps its URLs (the key of each source's row), shown
 * without their secrets. Not undone: what was removed is not kept anywhere.
 */
export class ImportActorNames1765450000000 implements MigrationInterface {
  name = 'ImportActorNames1765450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const key of DISEASES) {
      const table = `${key}_revisions`;
      // One name per source: a handful of distinct actors, each rewritten by one statement.
      const actors = (await queryRunner.query(
        `SELECT DISTINCT actor FROM ${table} WHERE actor LIKE 'import:%' OR actor LIKE 'sync:%'`,
      )) as { actor: string }[];
      for (const { actor } of actors) {
        const match = /^(import|sync):(.*)$/s.exec(String(actor));
        if (!match) continue;
        const renamed = importActor(match[1] as ImportVia, match[2]);
        if (renamed !== actor) {
          await queryRunner.query(`UPDATE ${table} SET actor = ? WHERE actor = ?`, [
            renamed,
            actor,
          ]);
        }
      }
    }
  }

  async down(): Promise<void> {
    // Nothing to put back: the removed parts were secrets or server paths.
  }
}
