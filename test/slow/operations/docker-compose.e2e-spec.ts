import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';
import { EnvironmentVariables } from '@app/config';
import { ApiProcess, ROOT, startApi } from '../../support/built-api';
import { NGINX, freePort } from '../../support/nginx';
import { productionStartCommand } from '../../support/start-command';
import { TestDatabase, createTestDatabase } from '../../support/test-database';

const run = promisify(execFile);

const REDIS_DB = 2;
const TOKEN = 'compose-check-token-0123456789';

interface ComposeService {
  image?: string;
  build?: string | { context: string };
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  stop_grace_period?: string;
  profiles?: string[];
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as Compose;

/** Dockerfile instructions, continuation lines joined, comments dropped. */
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

/** `.env.example` as an operator copies it to `.env`. */
const envExample = Object.fromEntries(
  readFileSync(join(ROOT, '.env.example'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
) as Record<string, string>;

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}, $$. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value
    .replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
      const set = vars[name] !== undefined && vars[name] !== '';
      if (op === '?' && !set) throw new Error(`${name}: ${arg}`);
      if (op === '-' && !set) return arg ?? '';
      return vars[name] ?? '';
    })
    .replace(/\$\$/g, '$');
}

/** The JSON-array (exec form) arguments of the last instruction `name` of the final stage. */
function execForm(name: 'CMD' | 'HEALTHCHECK'): string[] {
  const line = dockerfile.filter((l) => l.startsWith(`${name} `)).pop() ?? '';
  const json = line.slice(line.indexOf('['));
  return JSON.parse(json) as string[];
}

describe('docker-compose.yml and Dockerfile', () => {
  const api = compose.services.api;

  it('runs MySQL 8.4 with a named volume and a health check', () => {
    const db = compose.services.db;
    expect(db.image).toBe('mysql:8.4');
    expect(db.volumes).toEqual(['db-data:/var/lib/mysql']);
    expect(Object.keys(compose.volumes ?? {})).toContain('db-data');
    expect(db.healthcheck?.test.join(' ')).toContain('mysqladmin ping');
    expect(compose.services.redis.image).toMatch(/^redis:7/);
    expect(compose.services.redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('builds the API from the Dockerfile, waits for a healthy database and publishes port 3000', () => {
    expect(api.build).toBe('.');
    expect(api.depends_on).toEqual({
      db: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(api.ports?.map((p) => interpolate(p, {}))).toEqual(['3000:3000']);
    expect(api.environment?.DB_HOST).toBe('db');
    expect(api.environment?.REDIS_URL).toBe('redis://redis:6379/0');
    // Sync is off unless the operator gives sources.
    expect(interpolate(api.environment?.SYNC_SOURCES ?? 'unset', {})).toBe('');
    expect(interpolate(api.environment?.SYNC_INTERVAL ?? '', {})).toBe('6h');
    expect(
      interpolate(api.environment?.SYNC_SOURCES ?? '', { SYNC_SOURCES: 'covid=https://x/c.csv' }),
    ).toBe('covid=https://x/c.csv');
    // Docker waits longer than the API's own shutdown deadline.
    expect(parseInt(api.stop_grace_period ?? '10', 10)).toBeGreaterThan(
      Number(interpolate(api.environment?.SHUTDOWN_TIMEOUT ?? '', {})),
    );
  });

  it("passes every setting the API reads, but SQLite's file", () => {
    const read = getMetadataStorage()
      .getTargetValidationMetadatas(EnvironmentVariables, '', true, false)
      .map((m) => m.propertyName);
    const passed = Object.keys(api.environment ?? {});
    expect([...new Set(read)].filter((name) => !passed.includes(name)).sort()).toEqual(['DB_PATH']);
  });

  it('takes every secret and setting from .env, which .env.example documents and git ignores', async () => {
    const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    const used = new Set([...text.matchAll(/\$\{(\w+)/g)].map((m) => m[1]));
    expect([...used].filter((name) => !(name in envExample))).toEqual([]);
    // `docker compose up` works with no other step (local-only defaults); .env overrides them.
    for (const secret of ['DB_PASSWORD', 'MYSQL_ROOT_PASSWORD']) {
      expect(text).toMatch(new RegExp(`\\$\\{${secret}:-local-only-`));
    }
    expect(interpolate(api.environment?.DB_PASSWORD ?? '', {})).toBe('local-only-db-password');
    expect(interpolate(api.environment?.DB_PASSWORD ?? '', { DB_PASSWORD: 's3cret' })).toBe(
      's3cret',
    );
    expect(text).not.toMatch(/ports:[\s\S]*3306/);
    const ignored = await run('git', ['check-ignore', '.env'], { cwd: ROOT });
    expect(ignored.stdout.trim()).toBe('.env');
    const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(dockerignore).toEqual(expect.arrayContaining(['.env', 'node_modules', 'dist']));
  });

  describe('the proxy profile: nginx in front of every API instance', () => {
    const nginx = compose.services.nginx;
    const CONF = 'deploy/nginx/api.conf';
    const conf = readFileSync(join(ROOT, CONF), 'utf8');
    /** The config's directives, one per line as written, comments dropped. */
    const directives = conf
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);

    it('adds nginx only with `--profile proxy`, after the API is healthy, with the committed config', () => {
      // `docker compose up` without a profile still starts the database, Redis and the API.
      const optional = Object.entries(compose.services).filter(([, service]) => service.profiles);
      expect(optional.map(([name]) => name)).toEqual(['nginx']);
      expect(nginx.profiles).toEqual(['proxy']);
      // `resolve` on an upstream server (instances found again as they come and go): 1.27.3+.
      expect(nginx.image).toMatch(/^nginx:1\.(2[89]|[3-9]\d)(\.\d+)*-alpine$/);
      expect(nginx.depends_on).toEqual({ api: { condition: 'service_healthy' } });
      expect(nginx.volumes).toEqual([`./${CONF}:/etc/nginx/conf.d/default.conf:ro`]);
      expect(nginx.ports?.map((p) => interpolate(p, envExample))).toEqual(['8080:80']);
      // The instances then listen on the host's loopback only, and believe the one hop.
      const behindProxy = { ...envExample, API_PORTS: '127.0.0.1:3000-3002', TRUST_PROXY: '1' };
      expect(api.ports?.map((p) => interpolate(p, behindProxy))).toEqual([
        '127.0.0.1:3000-3002:3000',
      ]);
      expect(interpolate(api.environment?.TRUST_PROXY ?? '', behindProxy)).toBe('1');
    });

    it('balances every instance, skips a dead one, resends no POST and appends X-Forwarded-For', () => {
      expect(directives).toEqual(
        expect.arrayContaining([
          'resolver 127.0.0.11 valid=5s ipv6=off;',
          'server api:3000 resolve max_fails=1 fail_timeout=5s;',
          'proxy_pass http://api;',
          'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
          'proxy_next_upstream error timeout;',
          'proxy_connect_timeout 2s;',
        ]),
      );
      // Never `non_idempotent`: a POST an instance received may have been written.
      expect(conf).not.toContain('non_idempotent');
      // Bodies up to BODY_LIMIT reach the API, which answers 413 itself beyond it.
      const bodyLimit = interpolate(api.environment?.BODY_LIMIT ?? '', envExample);
      const maxBody = /^client_max_body_size (\d+)m;$/.exec(
        directives.find((d) => d.startsWith('client_max_body_size')) ?? '',
      );
      expect(bodyLimit).toMatch(/^\d+mb$/);
      expect(Number(maxBody?.[1])).toBeGreaterThan(parseInt(bodyLimit, 10));
    });

    it("is a valid nginx config (checked by Debian's nginx with the Docker-only parts replaced)", async () => {
      const dir = mkdtempSync(join(tmpdir(), 'nginx-compose-'));
      try {
        // Debian's nginx predates `resolve`, and `api` resolves only in Compose's network.
        const local = conf
          .replace(' resolve ', ' ')
          .replace('server api:3000', 'server 127.0.0.1:3000');
        expect(local).not.toBe(conf);
        writeFileSync(join(dir, 'api.conf'), local);
        const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
          .map((name) => `${name}_temp_path ${dir}/${name};`)
          .join(' ');
        writeFileSync(
          join(dir, 'nginx.conf'),
          `pid ${dir}/nginx.pid;\nevents {}\nhttp { access_log off; ${temp} include ${dir}/api.conf; }\n`,
        );
        const { stderr } = await run(NGINX, [
          '-t',
          '-p',
          dir,
          '-c',
          join(dir, 'nginx.conf'),
          '-e',
          'stderr',
        ]);
        expect(stderr).toContain('test is successful');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it('builds in stages, ships production dependencies and all of dist/, runs as a non-root user', () => {
    const stages = dockerfile.filter((l) => l.startsWith('FROM '));
    expect(stages).toHaveLength(2);
    expect(dockerfile).toContain('RUN npm run build && npm prune --omit=dev --no-audit --no-fund');
    const final = dockerfile.slice(dockerfile.indexOf(stages[1]));
    expect(final).toEqual(
      expect.arrayContaining([
        'COPY --from=build /app/node_modules ./node_modules',
        'COPY --from=build /app/dist ./dist',
        'USER node',
        'ENV NODE_ENV=production',
        // Reachable through the port mapping: the API alone listens on 127.0.0.1 (decision 0046).
        'ENV HOST=0.0.0.0',
      ]),
    );
    expect(final.some((l) => l.startsWith('HEALTHCHECK '))).toBe(true);
    expect(execForm('CMD')).toEqual(['node', 'dist/apps/api/apps/api/src/main.js']);
  });

  it('starts the API as npm run start:prod does, Node flags included (the bench reads the same)', () => {
    const { nodeFlags, main } = productionStartCommand(ROOT);
    expect(execForm('CMD')).toEqual(['node', ...nodeFlags, relative(ROOT, main)]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe('npm run build:api && npm run start:prod');
  });

  describe('the start command with exactly the Compose environment', () => {
    let db: TestDatabase;
    let app: ApiProcess | undefined;
    let env: Record<string, string>;
    /**
     * Host side of `ports` (the container listens on 3000): free at run time, since a fixed port
     * may be taken by the same suite running from another checkout.
     */
    let apiPort: number;

    beforeAll(async () => {
      apiPort = await freePort();
      db = await createTestDatabase('mysql');
      // What the operator's .env holds: .env.example plus a token of their own.
      const dotenv = { ...envExample, API_TOKENS: `compose-check:${TOKEN}` };
      const composed = Object.fromEntries(
        Object.entries(api.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), dotenv)]),
      );
      // Only what Docker's network changes: service names become 127.0.0.1, the throw-away
      // database and its account stand for the db service's, Redis db 2 is ours, and the port
      // is the host side of the mapping.
      env = {
        ...composed,
        DB_HOST: db.config.host,
        DB_PORT: String(db.config.port),
        DB_USER: db.config.user,
        DB_PASSWORD: db.config.password,
        DB_NAME: db.config.name,
        REDIS_URL: composed.REDIS_URL.replace('//redis:', '//127.0.0.1:').replace(
          /\/0$/,
          `/${REDIS_DB}`,
        ),
        PORT: String(apiPort),
      };
      const [command, ...args] = execForm('CMD');
      expect(command).toBe('node');
      app = await startApi(env, args);
    });

    afterAll(async () => {
      if (app && app.child.exitCode === null) app.child.kill('SIGKILL');
      await db?.drop();
    });

    const url = (path: string) => `http://127.0.0.1:${apiPort}${path}`;

    it('keeps the production settings of the Compose file', () => {
      expect(env).toEqual(
        expect.objectContaining({
          NODE_ENV: 'production',
          DB_TYPE: 'mysql',
          HOST: '0.0.0.0',
          THROTTLE_LIMIT: '100',
          LOG_LEVEL: 'info',
          REDIS_URL: 'redis://127.0.0.1:6379/2',
        }),
      );
    });

    it('has run the migrations at start-up and answers health, public and token routes', async () => {
      const { host, port, user, password, name } = db.config;
      const connection = await createConnection({ host, port, user, password, database: name });
      const [tables] = await connection.query('SHOW TABLES');
      await connection.end();
      expect(
        (tables as Record<string, string>[]).map((row) => Object.values(row)[0]).sort(),
      ).toEqual(expect.arrayContaining(['covid_data', 'migrations', 'mpox_data']));

      const health = await fetch(url('/api/health'));
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'up', redis: 'up' });

      const totals = await fetch(url('/api/covid/public/totals'));
      expect(totals.status).toBe(200);
      expect(await totals.json()).toEqual({ total_cases: 0, total_deaths: 0 });

      const refused = await fetch(url('/api/stats/summary'));
      expect(refused.status).toBe(401);
      const summary = await fetch(url('/api/stats/summary'), {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(summary.status).toBe(200);
      expect(await summary.json()).toEqual({
        covid: { total_cases: 0, total_deaths: 0 },
        mpox: { total_cases: 0, total_deaths: 0 },
      });

      // Logs on standard output: JSON lines, the token never among them.
      const lines = app!.output().split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
      expect(app!.output()).not.toContain(TOKEN);
    });

    it("passes the image's HEALTHCHECK, and stops with code 0 on Docker's SIGTERM", async () => {
      const [command, ...args] = execForm('HEALTHCHECK');
      expect(command).toBe('node');
      const check = () =>
        run(process.execPath, args, { env: { PORT: String(apiPort) } }).then(
          () => 0,
          (error: { code?: number }) => error.code ?? -1,
        );
      expect(await check()).toBe(0);
      app!.child.kill('SIGTERM');
      expect(await app!.exited).toEqual({ code: 0, signal: null });
      expect(await check()).toBe(1);
    });
  });
});
