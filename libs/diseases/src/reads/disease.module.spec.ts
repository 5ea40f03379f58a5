import { AppConfig, loadConfig } from '@app/config';
import { listPageQueries } from './disease.module';

describe('listPageQueries', () => {
  it('gives list pages a quarter of the MySQL pool per disease, at least one; one on SQLite', () => {
    const mysql = (pool?: string): AppConfig =>
      loadConfig({ DB_TYPE: 'mysql', ...(pool ? { DB_POOL_SIZE: pool } : {}) });
    expect(listPageQueries(mysql())).toBe(2);
    expect(listPageQueries(mysql('40'))).toBe(10);
    expect(listPageQueries(mysql('2'))).toBe(1);
    expect(listPageQueries(loadConfig({}))).toBe(1);
  });
});
