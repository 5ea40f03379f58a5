import { ConfigValidationError, loadConfig } from './index';
import { TRUST_PROXY_TRUE_REFUSED } from './trust-proxy';

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
      host: '127.0.0.1',
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
      importLimits: { maxBytes: 1024 ** 3, maxRows: 2_000_000 },
      syncWorkerMemoryMb: 2048,
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
      TRUST_PROXY: '2',
      SHUTDOWN_TIMEOUT: '30',
      TOKEN_REFRESH_MS: '250',
      HTTP_CACHE_MAX_AGE: '60',
      HTTP_CACHE_SWR: '0',
      IMPORT_MAX_BYTES: '64kb',
      IMPORT_MAX_ROWS: '1000',
      SYNC_WORKER_MEMORY: '1536mb',
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
      trustProxy: 2,
      shutdownTimeoutSeconds: 30,
      tokenRefreshMs: 250,
      httpCache: { maxAgeSeconds: 60, staleWhileRevalidateSeconds: 0 },
      importLimits: { maxBytes: 64 * 1024, maxRows: 1000 },
      syncWorkerMemoryMb: 1536,
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
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'abc' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '::1/129' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/8/8' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '1.2.3' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.2, Loopback' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: ' , ' }, 'TRUST_PROXY'],
    [{ SHUTDOWN_TIMEOUT: '0' }, 'SHUTDOWN_TIMEOUT'],
    [{ TOKEN_REFRESH_MS: '50' }, 'TOKEN_REFRESH_MS'],
    [{ DB_TIMEOUT_MS: '10' }, 'DB_TIMEOUT_MS'],
    [{ HTTP_CACHE_MAX_AGE: '-1' }, 'HTTP_CACHE_MAX_AGE'],
    [{ HTTP_CACHE_SWR: '1.5' }, 'HTTP_CACHE_SWR'],
    [{ IMPORT_MAX_BYTES: '512' }, 'IMPORT_MAX_BYTES'],
    [{ IMPORT_MAX_BYTES: 'huge' }, 'IMPORT_MAX_BYTES'],
    [{ IMPORT_MAX_ROWS: '0' }, 'IMPORT_MAX_ROWS'],
    [{ IMPORT_MAX_ROWS: '2.5' }, 'IMPORT_MAX_ROWS'],
    [{ SYNC_WORKER_MEMORY: '16mb' }, 'SYNC_WORKER_MEMORY'],
    [{ API_TOKENS: 'no-colon' }, 'API_TOKENS'],
    [{ API_TOKENS: 'a:short' }, 'API_TOKENS'],
    [{ API_TOKENS: 'a:samesame1,b:samesame1' }, 'API_TOKENS'],
    [{ API_TOKENS: 'bad name:abcdefgh1' }, 'API_TOKENS'],
  ])('refuses %p, naming %s', (env, variable) => {
    const found = problems(env);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(variable);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['1', 1],
    ['2', 2],
    ['10', 10],
    ['10.0.0.2', ['10.0.0.2']],
    ['10.0.0.0/8, ::1', ['10.0.0.0/8', '::1']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
    ['172.16.0.0/12,fd00::/8,linklocal', ['172.16.0.0/12', 'fd00::/8', 'linklocal']],
  ])('takes TRUST_PROXY=%p as Fastify does: %p', (value, trustProxy) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(
      trustProxy,
    );
  });

  it.each(['true', 'TRUE', ' true '])(
    'refuses TRUST_PROXY=%p, saying why and what to set instead',
    (value) => {
      expect(problems({ TRUST_PROXY: value })).toEqual([TRUST_PROXY_TRUE_REFUSED]);
      expect(TRUST_PROXY_TRUE_REFUSED).toBe(
        'TRUST_PROXY=true is refused: it trusts every hop, so a client can forge X-Forwarded-For ' +
          'and pick its own address (and rate-limit budget); set the number of proxies in front ' +
          '(1 to 10, e.g. 1) or their addresses, comma-separated (e.g. 10.0.0.2, 172.16.0.0/12 ' +
          'or loopback), or false without a proxy',
      );
    },
  );

  it('names the entries of TRUST_PROXY it cannot read', () => {
    expect(problems({ TRUST_PROXY: '10.0.0.2, abc, 10.0.0.0/33' })).toEqual([
      'TRUST_PROXY: not an address, CIDR or range name: "abc", "10.0.0.0/33"; set the number of ' +
        'proxies in front (1 to 10, e.g. 1) or their addresses, comma-separated (e.g. 10.0.0.2, ' +
        '172.16.0.0/12 or loopback), or false without a proxy',
    ]);
    expect(problems({ TRUST_PROXY: '0' })[0]).toMatch(/^TRUST_PROXY: 0 proxies is out of range; /);
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
