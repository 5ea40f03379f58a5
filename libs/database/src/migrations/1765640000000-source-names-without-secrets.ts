import { MigrationInterface, QueryRunner } from 'typeorm';
import { withSourceNames } from '@app/common';

/** The `population.source` column's size. */
const POPULATION_SOURCE_LENGTH = 200;

/**
 * Before this, a population table's `source` kept the URLs of schemes other than http(s)
 * (`ftp://user:password@...`, `s3://...?X-Amz-Signature=...`) and server paths whole, and a
 * source's `last_error` could hold its URL with credentials and query string (a population
 * import's, or one cut before it was named). Each is rewritten as they are now written
 * (`withSourceNames`). The `sources` table keeps its URLs (the key of each row), never shown
 * whole. Not undone: what was removed is not kept anywhere.
 */
export class SourceNamesWithoutSecrets1765640000000 implements MigrationInterface {
  name = 'SourceNamesWithoutSecrets1765640000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A handful of distinct sources in a table of thousands of rows: one statement each.
    const sources = (await queryRunner.query(`SELECT DISTINCT source FROM population`)) as {
      source: string;
    }[];
    for (const { source } of sources) {
      const shown = withSourceNames(String(source)).slice(0, POPULATION_SOURCE_LENGTH);
      if (shown !== source) {
        await queryRunner.query(`UPDATE population SET source = ? WHERE source = ?`, [
          shown,
          source,
        ]);
      }
    }
    const errors = (await queryRunner.query(
      `SELECT id, url, last_error FROM sources WHERE last_error IS NOT NULL`,
    )) as { id: number; url: string; last_error: string }[];
    for (const row of errors) {
      const shown = withSourceNames(String(row.last_error), [String(row.url)]);
      if (shown !== row.last_error) {
        await queryRunner.query(`UPDATE sources SET last_error = ? WHERE id = ?`, [shown, row.id]);
      }
    }
  }

  async down(): Promise<void> {
    // Nothing to put back: the removed parts were secrets or server paths.
  }
}
