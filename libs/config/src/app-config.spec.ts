import { ConfigValidationError, loadConfig } from './index';

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as ConfigValidationError).problems;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      db: {
        type: 'sqlite',
        path: 'data/covid.sqlite',
        host: '127.0.0.1',
        port: 3306,
        user: 'root',
        password: '',
        name: 'covid',
        timeoutMs: 5000,
        poolSize: undefined,
      },
      apiTokens: [],
      throttle: { limit: 100, ttlSeconds: 60 },
      redisUrl: undefined,
      bodyLimitBytes: 5 * 1024 * 1024,
      logLevel: 'info',
      corsOrigins: [],
      trustProxy: false,
      shutdownTimeoutSeconds: 10,
      tokenRefreshMs: 1000,
      cacheTtlMs: 1000,
      httpCache: { maxAgeSeconds: 10, staleWhileRevalidateSeconds: 30 },
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      DB_TYPE: 'mysql',
      DB_HOST: 'db',
      DB_PORT: '3307',
      DB_USER: 'covid',
      DB_PASSWORD: 'pw',
      DB_NAME: 'covid_prod',
      API_TOKENS: 'dashboard:abcdefgh12345678, partner-1:ijklmnop12345678',
      THROTTLE_LIMIT: '500',
      THROTTLE_TTL: '10',
      REDIS_URL: 'redis://redis:6379',
      BODY_LIMIT: '512kb',
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: 'true',
      SHUTDOWN_TIMEOUT: '30',
      TOKEN_REFRESH_MS: '250',
      HTTP_CACHE_MAX_AGE: '60',
      HTTP_CACHE_SWR: '0',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      host: '127.0.0.1',
      db: {
        type: 'mysql',
        host: 'db',
        port: 3307,
        user: 'covid',
        password: 'pw',
        name: 'covid_prod',
      },
      apiTokens: [
        { client: 'dashboard', token: 'abcdefgh12345678' },
        { client: 'partner-1', token: 'ijklmnop12345678' },
      ],
      throttle: { limit: 500, ttlSeconds: 10 },
      redisUrl: 'redis://redis:6379',
      bodyLimitBytes: 512 * 1024,
      logLevel: 'warn',
      corsOrigins: ['https://a.example', 'https://b.example'],
      trustProxy: true,
      shutdownTimeoutSeconds: 30,
      tokenRefreshMs: 250,
      httpCache: { maxAgeSeconds: 60, staleWhileRevalidateSeconds: 0 },
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DB_TYPE: 'postgres' }, 'DB_TYPE'],
    [{ DB_PORT: '0' }, 'DB_PORT'],
    [{ DB_NAME: 'a;drop' }, 'DB_NAME'],
    [{ THROTTLE_LIMIT: '0' }, 'THROTTLE_LIMIT'],
    [{ THROTTLE_TTL: '1.5' }, 'THROTTLE_TTL'],
    [{ BODY_LIMIT: 'lots' }, 'BODY_LIMIT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ SHUTDOWN_TIMEOUT: '0' }, 'SHUTDOWN_TIMEOUT'],
    [{ TOKEN_REFRESH_MS: '50' }, 'TOKEN_REFRESH_MS'],
    [{ DB_TIMEOUT_MS: '10' }, 'DB_TIMEOUT_MS'],
    [{ HTTP_CACHE_MAX_AGE: '-1' }, 'HTTP_CACHE_MAX_AGE'],
    [{ HTTP_CACHE_SWR: '1.5' }, 'HTTP_CACHE_SWR'],
    [{ API_TOKENS: 'no-colon' }, 'API_TOKENS'],
    [{ API_TOKENS: 'a:short' }, 'API_TOKENS'],
    [{ API_TOKENS: 'a:samesame1,b:samesame1' }, 'API_TOKENS'],
    [{ API_TOKENS: 'bad name:abcdefgh1' }, 'API_TOKENS'],
  ])('refuses %p, naming %s', (env, variable) => {
    const found = problems(env);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(variable);
  });

  it('requires DB_TYPE explicitly with NODE_ENV=production', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'DB_TYPE must be "sqlite" or "mysql" (required when NODE_ENV=production)',
    ]);
    expect(loadConfig({ NODE_ENV: 'production', DB_TYPE: 'sqlite' }).db.type).toBe('sqlite');
  });

  it('names every bad variable at once', () => {
    const found = problems({ PORT: 'x', LOG_LEVEL: 'y' });
    expect(found.some((p) => p.includes('PORT'))).toBe(true);
    expect(found.some((p) => p.includes('LOG_LEVEL'))).toBe(true);
  });
});
