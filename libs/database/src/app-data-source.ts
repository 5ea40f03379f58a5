import { DataSource, Driver } from 'typeorm';

/**
 * The service's TypeORM DataSource. The entities declare BIGINT ids, which is what MySQL
 * stores. SQLite allows AUTOINCREMENT only on a key declared INTEGER, which is 64-bit already, and
 * that is what its migrations create: there the entities' BIGINT keys are read as INTEGER, so that
 * the entities describe each database's schema exactly (`test/fast/operations/
 * entities-match-schema.e2e-spec.ts`).
 */
export class AppDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    if (this.options.type === 'mysql') readMariaDbNullDefaults(this.driver);
    else keepSqliteDeclaredTypes(this.driver);
    await super.buildMetadatas();
    if (this.options.type === 'mysql') return;
    for (const metadata of this.entityMetadatas) {
      for (const column of metadata.columns) {
        if (
          column.isPrimary &&
          column.generationStrategy === 'increment' &&
          column.type === 'bigint'
        ) {
          column.type = 'integer';
        }
        // MySQL's character sets and collations (binary keys, ASCII hashes): SQLite has none.
        column.charset = undefined;
        column.collation = undefined;
      }
    }
  }
}

/**
 * SQLite keeps a column's declared type as written, and the migrations declare `char(64)` (token
 * and URL hashes) and `int` (population years, rate limits) there as on MySQL. TypeORM's SQLite
 * driver knows no `char` and reads an entity's `int` as `integer`: it is told to keep both.
 */
function keepSqliteDeclaredTypes(driver: Driver): void {
  driver.supportedDataTypes.push('char');
  driver.withLengthColumnTypes.push('char');
  const normalizeType = driver.normalizeType.bind(driver);
  driver.normalizeType = (column: Parameters<Driver['normalizeType']>[0]) =>
    column.type === 'int' ? 'int' : normalizeType(column);
}

/** The part of TypeORM's MySQL driver that compares a column's default with the entity's. */
interface DefaultComparer {
  compareDefaultValues(
    entityDefault: string | undefined,
    tableDefault: string | undefined,
  ): boolean;
}

/**
 * MariaDB reports a nullable column without a default as having the default `NULL`. TypeORM reads
 * that as no default only when told the server is MariaDB (driver type `mariadb`); the service uses
 * the `mysql` type for both servers, so it is read here as TypeORM reads it for `mariadb`.
 */
function readMariaDbNullDefaults(driver: Driver): void {
  const comparer = driver as unknown as DefaultComparer;
  const compare = comparer.compareDefaultValues.bind(comparer);
  comparer.compareDefaultValues = (entityDefault, tableDefault) =>
    compare(entityDefault, tableDefault === "'NULL'" ? undefined : tableDefault);
}
