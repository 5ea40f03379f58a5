import { MigrationInterface, QueryRunner } from 'typeorm';

const DISEASES = ['covid', 'mpox'];

/**
 * Each region's daily sums, kept by every write (decision 0036), and the regions' members they
 * are summed over. Both start empty: the start-up fills the members from the code's regions and
 * builds the sums (`RegionDaysRepository.reconcile`), and does so again whenever they change.
 */
export class RegionDays1765610000000 implements MigrationInterface {
  name = 'RegionDays1765610000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const key = mysql
      ? 'varchar(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL'
      : 'varchar(300) NOT NULL';
    const engine = mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : '';
    await queryRunner.query(
      `CREATE TABLE region_members (
        region varchar(64) NOT NULL,
        country_key ${key},
        PRIMARY KEY (region, country_key)
      )${engine}`,
    );
    await queryRunner.query(
      'CREATE INDEX idx_region_members_country ON region_members (country_key)',
    );
    for (const disease of DISEASES) {
      await queryRunner.query(
        `CREATE TABLE ${disease}_region_days (
          region varchar(64) NOT NULL,
          date date NOT NULL,
          total_cases bigint NOT NULL,
          new_cases double NOT NULL,
          total_deaths bigint NOT NULL,
          new_deaths double NOT NULL,
          countries_reporting int NOT NULL,
          corrected_at bigint NULL,
          PRIMARY KEY (region, date)
        )${engine}`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const disease of DISEASES) await queryRunner.query(`DROP TABLE ${disease}_region_days`);
    await queryRunner.query('DROP TABLE region_members');
  }
}
