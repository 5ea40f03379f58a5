import { DataSource } from 'typeorm';
import { eventually } from './cli';

/**
 * MySQL: whether one statement `LIKE` this runs in the test's database (waiting for a row lock
 * another connection holds), soon. MariaDB lists no LOCK WAIT in INNODB_TRX for such a wait.
 */
export function statementRunning(dataSource: DataSource, statement: string): Promise<boolean> {
  return eventually(
    async () => {
      const rows = await dataSource.query<{ n: string | number }[]>(
        `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
         WHERE DB = DATABASE() AND INFO LIKE ?`,
        [statement],
      );
      return Number(rows[0].n) === 1;
    },
    { attempts: 100, everyMs: 20 },
  );
}
