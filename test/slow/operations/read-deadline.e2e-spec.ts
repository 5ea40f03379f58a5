/**
 * A read stops at its deadline. On MySQL, a read past `DB_TIMEOUT_MS` answers 503 and its
 * statement is killed on the server (it went on running there, piling up behind the 503s);
 * reads never hold the whole pool, so the health probe still answers.
 */
import { Connection, createConnection } from 'mysql2/promise';
import { MESSAGES } from '@app/common';
import { recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';
import { onlyOn } from '../../support/database-only';

const mysqlOnly = onlyOn('mysql').describe;

const UNAVAILABLE = { error: MESSAGES.databaseUnavailable };

mysqlOnly('a read past its deadline (MySQL)', () => {
  let t: TestApp;
  /** Holds `covid_data` locked: every read of it waits on the server, as a slow one runs. */
  let locker: Connection;

  beforeAll(async () => {
    t = await bootTestApp({ DB_TIMEOUT_MS: '1000' });
    const created = await t.http.post('/api/covid/data').set(t.auth()).send(recordBody());
    expect(created.status).toBe(201);
    const db = t.config.db;
    locker = await createConnection({
      host: db.host,
      port: db.port,
      user: db.user,
      password: db.password,
      database: db.name,
    });
  });
  afterAll(async () => {
    await locker?.end();
    await t?.close();
  });

  /** Statements on `covid_data` still on the server, the locker's own excepted. */
  const lingering = async (): Promise<number> => {
    const [rows] = await locker.query(
      `SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
       WHERE DB = DATABASE() AND ID <> CONNECTION_ID() AND INFO LIKE '%covid_data%'`,
    );
    return Number((rows as { n: number | string }[])[0].n);
  };

  /** The number of lingering statements, polled for up to `ms` until none is left. */
  const lingeringAfter = async (ms: number): Promise<number> => {
    const until = Date.now() + ms;
    for (;;) {
      const n = await lingering();
      if (n === 0 || Date.now() > until) return n;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const health = () => t.http.get('/api/health');

  it('answers 503, kills its statement on the server, and health answers meanwhile', async () => {
    await locker.query('LOCK TABLES covid_data WRITE');
    try {
      const read = t.http.get('/api/covid/public/country/France');
      const probe = await health();
      expect(probe.status).toBe(200);
      const answer = await read;
      expect(answer.status).toBe(503);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.body).toEqual(UNAVAILABLE);
      expect(await lingeringAfter(1000)).toBe(0);
      expect((await health()).status).toBe(200);
    } finally {
      await locker.query('UNLOCK TABLES');
    }
    // The pool serves again: the killed statement's connection was not put back busy.
    const after = await t.http.get('/api/covid/public/country/France');
    expect(after.status).toBe(200);
    expect(after.body).toEqual([expect.objectContaining(recordBody())]);
  });

  it('many slow reads at once: all 503, none left running, health 200 throughout', async () => {
    await locker.query('LOCK TABLES covid_data WRITE');
    const probes: number[] = [];
    let reading = true;
    const probing = (async () => {
      while (reading) probes.push((await health()).status);
    })();
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => t.http.get(`/api/covid/public/country/Place${i}`)),
      );
      reading = false;
      await probing;
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 503));
      expect(answers.every((a) => a.body.error === UNAVAILABLE.error)).toBe(true);
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.filter((s) => s !== 200)).toEqual([]);
      expect(await lingeringAfter(1000)).toBe(0);
    } finally {
      reading = false;
      await probing;
      await locker.query('UNLOCK TABLES');
    }
    const after = await t.http.get('/api/covid/public/country/France');
    expect(after.status).toBe(200);
  });
});
