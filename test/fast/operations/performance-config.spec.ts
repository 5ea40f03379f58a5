import 'reflect-metadata';
import { loadConfig } from '@app/config';
import { DEFAULT_POOL_SIZE, buildDataSourceOptions } from '@app/database';

describe('performance settings (CACHE_TTL_MS, DB_POOL_SIZE)', () => {
  it('defaults to a 1 s cache and DEFAULT_POOL_SIZE MySQL connections', () => {
    const config = loadConfig({});
    expect(config.cacheTtlMs).toBe(1000);
    expect(buildDataSourceOptions({ ...config.db, type: 'mysql' })).toMatchObject({
      poolSize: DEFAULT_POOL_SIZE,
    });
  });

  it('takes the values from the environment', () => {
    const config = loadConfig({ CACHE_TTL_MS: '0', DB_POOL_SIZE: '40' });
    expect(config.cacheTtlMs).toBe(0);
    expect(buildDataSourceOptions({ ...config.db, type: 'mysql' })).toMatchObject({
      poolSize: 40,
    });
  });

  it.each([
    ['CACHE_TTL_MS', '-1'],
    ['CACHE_TTL_MS', 'soon'],
    ['DB_POOL_SIZE', '0'],
    ['DB_POOL_SIZE', '2.5'],
  ])('rejects %s=%s at start-up, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
