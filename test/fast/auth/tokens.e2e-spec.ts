/**
 * Tokens: compared in constant time (function level, statistical), never echoed in error bodies
 * nor written to the logs, and refused once removed from the configuration.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { MESSAGES } from '@app/common';
import { AppConfig, SCOPES, loadConfig } from '@app/config';
import { ApiTokenRepository, SqlRunner } from '@app/database';
import { RedisConnections } from '@app/messaging';
import { DataSource } from 'typeorm';
import { safeEqual } from '@api/auth/constant-time';
import { TokenService } from '@api/auth/token.service';
import { createApp } from '@api/bootstrap';
import { openSqliteFile } from '../../support/sqlite-file';
import { TestDatabase, createTestDatabase } from '../../support/test-database';
import { TOKENS } from '../../support/test-app';

/**
 * Median, over `samples` back-to-back pairs, of time(`a`) / time(`b`) for `calls` calls each.
 * Pairs share the machine's state of the moment (load, CPU frequency), and the order within a
 * pair alternates, so that neither function is favoured.
 */
function medianRatio(a: () => unknown, b: () => unknown, samples = 61, calls = 40): number {
  const time = (fn: () => unknown) => {
    const start = process.hrtime.bigint();
    for (let c = 0; c < calls; c++) fn();
    return Number(process.hrtime.bigint() - start);
  };
  const ratios: number[] = [];
  for (let s = 0; s < samples; s++) {
    if (s % 2) {
      const tb = time(b);
      ratios.push(time(a) / tb);
    } else {
      const ta = time(a);
      ratios.push(ta / time(b));
    }
  }
  return ratios.sort((x, y) => x - y)[Math.floor(samples / 2)];
}

describe('token comparison', () => {
  // Long secrets make a short-circuiting comparison plainly visible: comparing 64 KiB that
  // match but for the last character costs far more than stopping at the first one.
  const secret = 's'.repeat(64 * 1024);
  const lastDiffers = `${secret.slice(0, -1)}x`;
  const firstDiffers = `x${secret.slice(1)}`;
  const naive = (a: string, b: string) => a === b;

  it('takes the same time whether 0 or all but one characters match (safeEqual)', () => {
    const ratio = medianRatio(
      () => safeEqual(lastDiffers, secret),
      () => safeEqual(firstDiffers, secret),
    );
    process.stdout.write(`tokens: safeEqual median ratio prefix/none = ${ratio.toFixed(3)}\n`);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('would detect a comparison that stops at the first difference (the method can fail)', () => {
    // Fresh copies, so that V8 cannot answer from string identity or cached hashes.
    const copy = (s: string) => [...s].join('');
    const a = copy(lastDiffers);
    const b = copy(firstDiffers);
    const c = copy(secret);
    const ratio = medianRatio(
      () => naive(a, c),
      () => naive(b, c),
    );
    process.stdout.write(`tokens: === median ratio = ${ratio.toFixed(1)}\n`);
    expect(ratio).toBeGreaterThan(4);
  });

  it('resolves a wrong token in the same time however close it is to a real one', () => {
    const config = loadConfig({ API_TOKENS: `alice:${secret}` });
    // Static tokens only: the repository is real but never queried by resolve().
    const repository = new ApiTokenRepository(
      new SqlRunner(new DataSource({ type: 'better-sqlite3', database: ':memory:' })),
    );
    const tokens = new TokenService(config, repository, new RedisConnections(config));
    expect(tokens.resolve(secret)).toEqual({
      kind: 'client',
      client: 'alice',
      scopes: new Set(SCOPES),
    });
    expect(tokens.resolve(lastDiffers)).toEqual({ kind: 'invalid' });
    const ratio = medianRatio(
      () => tokens.resolve(lastDiffers),
      () => tokens.resolve(firstDiffers),
    );
    process.stdout.write(`tokens: TokenService.resolve median ratio = ${ratio.toFixed(3)}\n`);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('hashes both sides before a constant-time comparison', () => {
    // timingSafeEqual throws on inputs of different lengths: hashing first makes them equal.
    expect(safeEqual('short', 'a much longer secret')).toBe(false);
    expect(safeEqual(secret, secret)).toBe(true);
    const source = (file: string) =>
      readFileSync(join(__dirname, '../../../apps/api/src/auth', file), 'utf8');
    expect(source('constant-time.ts')).toMatch(/timingSafeEqual\(hashToken\(a\), hashToken\(b\)\)/);
    expect(readFileSync(join(__dirname, '../../../libs/common/src/token-hash.ts'), 'utf8')).toMatch(
      /createHash\('sha256'\)/,
    );
    const service = source('token.service.ts');
    expect(service).toMatch(/const hash = hashToken\(token\);/);
    expect(service).toMatch(/timingSafeEqual\(known\.hash, hash\)/);
  });
});

describe('tokens in answers and logs; revoked tokens', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication | undefined;
  let written = '';
  const spies: jest.SpyInstance[] = [];

  /** Boots on SQLite (logging does not depend on the driver) with the given tokens. */
  async function boot(apiTokens: string): Promise<request.Agent> {
    const config: AppConfig = loadConfig({
      API_TOKENS: apiTokens,
      LOG_LEVEL: 'trace',
      DB_TYPE: 'sqlite',
      DB_PATH: database.config.path,
      DB_TIMEOUT_MS: '200',
    });
    // The JSON log lines (pino) come here; anything else written to stdout/stderr is captured too.
    app = await createApp(config, {
      logDestination: {
        write: (line: string) => {
          written += line;
        },
      },
    });
    return request.agent(app.getHttpServer());
  }

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      spies.push(
        jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array, ...rest) => {
          written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
          return write(chunk, ...(rest as []));
        }),
      );
    }
  });

  afterAll(async () => {
    spies.forEach((spy) => spy.mockRestore());
    await app?.close();
    await database.drop();
  });

  it('never echoes a token in an error body nor writes one to the logs', async () => {
    const http = await boot(`alice:${TOKENS.alice},bob:${TOKENS.bob}`);
    const wrong = [
      `${TOKENS.alice}x`,
      TOKENS.alice.slice(0, -1),
      TOKENS.bob.toUpperCase(),
      'wrong-token-0123456789',
    ];
    const answers: request.Response[] = [];
    for (const token of wrong) {
      const res = await http.get('/api/covid/data').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: MESSAGES.invalidToken });
      expect(res.headers['www-authenticate']).toBe('Bearer');
      answers.push(res);
    }
    const bearer = { Authorization: `Bearer ${TOKENS.alice}` };
    answers.push(
      await http.post('/api/covid/data').set(bearer).send({ date: 'x' }).expect(400),
      await http
        .post('/api/covid/data')
        .set(bearer)
        .set('Content-Type', 'application/json')
        .send('{')
        .expect(400),
      await http.put('/api/covid/data/abc').set(bearer).send({}).expect(400),
      await http.get('/api/covid/stats').set(bearer).expect(400),
      await http.get('/api/covid/public/country/Atlantis').expect(404),
    );
    // A database error (the file locked by another process) is logged, tokens still not.
    const locker = openSqliteFile(database.config.path);
    locker.exec('BEGIN IMMEDIATE');
    try {
      answers.push(
        await http
          .post('/api/covid/data')
          .set(bearer)
          .send({
            date: '2021-01-01',
            country: 'France',
            total_cases: 1,
            new_cases: 1,
            total_deaths: 0,
            new_deaths: 0,
          })
          .expect(503),
      );
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    const secrets = [TOKENS.alice, ...wrong];
    for (const res of answers) {
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }
    // The capture works (start-up and the database error were logged) and holds no token.
    expect(written).toContain('Database unavailable');
    for (const secret of [TOKENS.alice, TOKENS.bob, ...wrong]) {
      expect(written).not.toContain(secret);
    }
  });

  it('refuses a token once it is removed from the configuration', async () => {
    let http = await boot(`alice:${TOKENS.alice},bob:${TOKENS.bob}`);
    await http.get('/api/covid/data').set('Authorization', `Bearer ${TOKENS.bob}`).expect(200);
    await app!.close();
    app = undefined;

    http = await boot(`alice:${TOKENS.alice}`);
    const res = await http.get('/api/covid/data').set('Authorization', `Bearer ${TOKENS.bob}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: MESSAGES.invalidToken });
    expect(res.headers['www-authenticate']).toBe('Bearer');
    await http.get('/api/covid/data').set('Authorization', `Bearer ${TOKENS.alice}`).expect(200);
  });
});
