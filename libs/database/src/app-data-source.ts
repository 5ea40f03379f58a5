import { DataSource } from 'typeorm';

/**
 * The service's TypeORM DataSource. The record entities declare BIGINT ids, which is what MySQL
 * stores. SQLite allows AUTOINCREMENT only on a key declared INTEGER, which is 64-bit already, and
 * that is what its migrations create: there the entities' BIGINT keys are read as INTEGER, so that
 * the entities describe each database's schema exactly (`test/fast/records/schema.e2e-spec.ts`).
 */
export class AppDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type === 'mysql') return;
    for (const metadata of this.entityMetadatas) {
      for (const column of metadata.primaryColumns) {
        if (column.generationStrategy === 'increment' && column.type === 'bigint') {
          column.type = 'integer';
        }
      }
    }
  }
}
