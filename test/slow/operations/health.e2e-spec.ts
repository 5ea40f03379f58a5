import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createConnection } from 'mysql2/promise';
import { MESSAGES } from '@app/common';
import { loadConfig } from '@app/config';
import { createApp } from '@api/bootstrap';
import { ShutdownDrain } from '@api/health/shutdown-drain.service';
import { PrivateMariaDb } from '../../support/private-mariadb';
import { TestApp, bootTestApp } from '../../support/test-app';

/** Our own Redis logical database (the shared server's other numbers belong to others). */
const REDIS_URL = 'redis://127.0.0.1:6379/2';
/** Nothing listens there (our port range): a Redis that is down. */
const DEAD_REDIS_URL = 'redis://127.0.0.1:3298/2';
const PRIVATE_MARIADB_PORT = 3290;

describe('GET /api/health', () => {
  describe('on the test database', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootTestApp({ THROTTLE_LIMIT: '2' });
    });
    afterAll(() => t.close());

    it('answers 200 ok with the database up, without Redis when REDIS_URL is unset', async () => {
      const res = await t.http.get('/api/health');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ status: 'ok', database: 'up' });
    });

    it('is public and never rate-limited', async () => {
      for (let i = 0; i < 6; i++) {
        const res = await t.http.get('/api/health');
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
      // The limit of 2 does apply elsewhere.
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await t.http.get('/api/covid/public/latest')).status);
      expect(statuses).toEqual([200, 200, 429]);
    });
  });

  it('answers 503 stopping, with Connection: close, once a shutdown signal is being handled', async () => {
    const t = await bootTestApp();
    try {
      // The first step of Nest's shutdown on SIGTERM (the signal itself would end Jest's worker).
      await t.app.get(ShutdownDrain).beforeApplicationShutdown('SIGTERM');
      const res = await t.http.get('/api/health');
      expect(res.status).toBe(503);
      expect(res.headers.connection).toBe('close');
      expect(res.body).toEqual({
        status: 'stopping',
        database: 'up',
        error: MESSAGES.shuttingDown,
      });
      // Requests still reaching the instance are served, and told to close their connection.
      const data = await t.http.get('/api/covid/public/latest');
      expect(data.status).toBe(200);
      expect(data.headers.connection).toBe('close');
    } finally {
      await t.close();
    }
  });

  it('reports Redis up when REDIS_URL is set', async () => {
    const t = await bootTestApp({ REDIS_URL });
    try {
      // A Redis ping has 500 ms: on a loaded machine one may miss it ("degraded"); a few tries.
      let res = await t.http.get('/api/health');
      for (let i = 0; i < 5 && res.body.redis !== 'up'; i++) {
        await new Promise((r) => setTimeout(r, 300));
        res = await t.http.get('/api/health');
      }
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', database: 'up', redis: 'up' });
    } finally {
      await t.close();
    }
  });

  it('answers 200 degraded when Redis is down (the instance still serves)', async () => {
    const t = await bootTestApp({ REDIS_URL: DEAD_REDIS_URL });
    try {
      const res = await t.http.get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'degraded', database: 'up', redis: 'down' });
      expect((await t.http.get('/api/covid/public/latest')).status).toBe(200);
      // Writes do not wait for their announcement to the other instances, nor fail with it.
      const created = await t.http.post('/api/covid/data').set(t.auth()).send({
        date: '2021-01-01',
        country: 'Chile',
        total_cases: 10,
        new_cases: 10,
        total_deaths: 1,
        new_deaths: 1,
      });
      expect(created.status).toBe(201);
      expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
        total_cases: 10,
        total_deaths: 1,
      });
    } finally {
      await t.close();
    }
  });

  describe('with a database that the test stops and starts again', () => {
    let mariadb: PrivateMariaDb;
    let app: NestFastifyApplication;

    beforeAll(async () => {
      mariadb = await PrivateMariaDb.create(PRIVATE_MARIADB_PORT);
      const admin = await createConnection({
        host: '127.0.0.1',
        port: PRIVATE_MARIADB_PORT,
        user: 'root',
      });
      await admin.query('CREATE DATABASE covid CHARACTER SET utf8mb4');
      await admin.end();
      app = await createApp(
        loadConfig({
          DB_TYPE: 'mysql',
          DB_HOST: '127.0.0.1',
          DB_PORT: String(PRIVATE_MARIADB_PORT),
          DB_USER: 'root',
          DB_NAME: 'covid',
          REDIS_URL,
          LOG_LEVEL: 'silent',
          THROTTLE_LIMIT: '100000',
        }),
      );
    });

    afterAll(async () => {
      await app?.close();
      await mariadb?.destroy();
    });

    it('answers 503 while the database is down and recovers by itself when it is back', async () => {
      const http = () => request(app.getHttpServer());
      let res = await http().get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', database: 'up', redis: 'up' });

      await mariadb.stop();
      res = await http().get('/api/health');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({
        status: 'unavailable',
        database: 'down',
        redis: 'up',
        error: MESSAGES.databaseUnavailable,
      });
      res = await http().get('/api/covid/public/latest');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: MESSAGES.databaseUnavailable });

      await mariadb.start();
      // The same process, not restarted: the pool reconnects on its own (bounded wait).
      for (let attempt = 0; attempt < 40; attempt++) {
        res = await http().get('/api/health');
        if (res.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok', database: 'up', redis: 'up' });
      res = await http().get('/api/covid/public/latest');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });
  });
});
