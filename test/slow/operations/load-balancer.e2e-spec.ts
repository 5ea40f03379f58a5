/**
 * Three instances of the built API on one MariaDB database and one Redis, behind a real nginx
 * that balances them, as production runs them. Several clients read and write through nginx while
 * one instance is killed (SIGKILL) and started again. Proven: every acknowledged write is stored
 * once, with its values; the only failed answers are the POSTs that the killed instance had
 * received (nginx never sends a POST twice; it passes other requests on to another instance); a
 * client's budget is one across the instances; a write changes the ETag on every instance.
 */
import { IncomingHttpHeaders, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createConnection } from 'mysql2/promise';
import { ApiProcess, databaseEnv, startApi } from '../../support/built-api';
import { eventually } from '../../support/cli';
import { flushRedisDb } from '../../support/cli-test-bed';
import { Nginx, freePort, startNginx } from '../../support/nginx';
import { TestDatabase, createTestDatabase } from '../../support/test-database';
import { onlyOn } from '../../support/database-only';

/** Our own Redis logical database, flushed at the start. */
const REDIS_URL = 'redis://127.0.0.1:6379/12';
/** THROTTLE_LIMIT: the default budget, which the budget test spends. */
const LIMIT = 6;
const INSTANCES = 3;
/** The instance killed and started again. */
const KILLED = 1;
/** One country per client, so that each client's records are its own. */
const COUNTRIES = ['France', 'Chile', 'Peru', 'Japan', 'Kenya'];
const CLIENTS = COUNTRIES.length;
/** Bounds of the load: requests per client, and a pause between two of a client's requests. */
const MAX_REQUESTS_PER_CLIENT = 4000;
const PAUSE_MS = 15;

const token = (name: string) => `${name}-lb-token-0123456789abcdef`;
/** Load clients and the reader get budgets of their own; `budget` has the default one. */
const API_TOKENS = [
  ...COUNTRIES.map((_, c) => `load${c}:${token(`load${c}`)}:1000000/1h`),
  `reader:${token('reader')}:1000000/1h`,
  `budget:${token('budget')}`,
].join(',');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of several shapes
type Json = any;

interface Answer {
  client: number;
  method: string;
  path: string;
  /** 0: no HTTP answer (connection error). */
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or undefined when the body is not (nginx's own error pages, a cut body). */
  body: Json;
  /** Every instance nginx tried, in order (its $upstream_addr), and what each gave. */
  upstreams: string[];
  upstreamStatuses: string[];
  /** performance.now() before sending and once the answer was read. */
  sentAt: number;
  answeredAt: number;
}

interface Options {
  token?: string;
  body?: unknown;
  localAddress?: string;
}

/** One request on a connection of its own; never rejects (a connection error gives status 0). */
function send(port: number, method: string, path: string, options: Options = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const sentAt = performance.now();
  return new Promise((resolve) => {
    const answer = (status: number, h: IncomingHttpHeaders, text: string): void => {
      let body: Json;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const list = (name: string) =>
        String(h[name] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      resolve({
        client: -1,
        method,
        path,
        status,
        headers: h,
        body,
        upstreams: list('x-upstream'),
        upstreamStatuses: list('x-upstream-status'),
        sentAt,
        answeredAt: performance.now(),
      });
    };
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers,
        agent: false,
        localAddress: options.localAddress,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => answer(res.statusCode ?? 0, res.headers, text));
        res.on('error', () => answer(0, res.headers, text));
      },
    );
    req.on('error', () => answer(0, {}, ''));
    req.setTimeout(30_000, () => req.destroy());
    req.end(payload);
  });
}

const EXPECTED_STATUS: Record<string, number> = { GET: 200, POST: 201, PUT: 200 };
/** A request that did what it asked: the status its method gives, with a whole JSON body. */
const succeeded = (a: Answer) => a.status === EXPECTED_STATUS[a.method] && a.body !== undefined;

interface Write {
  country: string;
  date: string;
  values: { total_cases: number; new_cases: number; total_deaths: number; new_deaths: number };
}
interface Post extends Write {
  answer: Answer;
  /** Set when the POST was acknowledged (201). */
  id?: number;
  /** The replacement of the record, once a PUT was sent. */
  put?: { values: Write['values']; answer: Answer };
}

/**
 * Clients that each send, one at a time, a mix of writes and reads of their own country through
 * nginx: client 0 only creates records; the others create, read a list, replace one of their
 * records (each at most once) and read the public totals in turn.
 */
class Load {
  readonly answers: Answer[] = [];
  readonly posts: Post[] = [];
  /** Clients with a request sent and not answered yet. */
  readonly waiting = new Set<number>();
  private stopped = false;
  private running: Promise<void>[] = [];

  constructor(private readonly port: number) {}

  start(): void {
    this.running = COUNTRIES.map((_, c) => this.client(c));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private async client(c: number): Promise<void> {
    const auth = token(`load${c}`);
    const country = COUNTRIES[c];
    let day = 0;
    const mine: Post[] = [];
    for (let i = 0; i < MAX_REQUESTS_PER_CLIENT && !this.stopped; i++) {
      const step = c === 0 ? 0 : i % 4;
      const toReplace = mine.find((p) => p.id !== undefined && !p.put);
      let answer: Answer;
      this.waiting.add(c);
      if (step === 0) {
        const date = new Date(Date.UTC(2020, 0, 1 + day++)).toISOString().slice(0, 10);
        const values = {
          total_cases: 1000 * (c + 1) + day,
          new_cases: day,
          total_deaths: c + 1,
          new_deaths: 0,
        };
        answer = await send(this.port, 'POST', '/api/covid/data', {
          token: auth,
          body: { date, country, ...values },
        });
        const id = succeeded(answer) ? (answer.body.id as number) : undefined;
        const post: Post = { country, date, values, answer, id };
        mine.push(post);
        this.posts.push(post);
      } else if (step === 2 && toReplace) {
        const values = {
          ...toReplace.values,
          total_cases: toReplace.values.total_cases + 500_000,
          new_deaths: 1,
        };
        answer = await send(this.port, 'PUT', `/api/covid/data/${toReplace.id}`, {
          token: auth,
          body: { date: toReplace.date, country, ...values },
        });
        toReplace.put = { values, answer };
      } else {
        const path =
          step === 1
            ? `/api/covid/data?country=${encodeURIComponent(country)}&limit=5`
            : '/api/covid/public/totals';
        answer = await send(this.port, 'GET', path, { token: auth });
      }
      this.waiting.delete(c);
      answer.client = c;
      this.answers.push(answer);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }

  /** Successful answers given by the instance at `address` to requests sent after `since`. */
  servedBy(address: string, since = 0): number {
    return this.answers.filter(
      (a) => a.sentAt > since && succeeded(a) && a.upstreams.at(-1) === address,
    ).length;
  }
}

/** One line per answer, for readable failures. */
const summary = (a: Answer) =>
  `client ${a.client} ${a.method} ${a.path}: ${a.status} via ${a.upstreams.join(',')} ` +
  `(${a.upstreamStatuses.join(',')}), sent ${a.sentAt.toFixed(1)}, answered ${a.answeredAt.toFixed(1)}`;

/** "200×3 429×1" */
function tally(keys: (string | number)[]): string {
  const counts = new Map<string | number, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([key, n]) => `${key}×${n}`)
    .join(' ');
}

// MariaDB only: the instances are separate processes that share the store, as in production.
onlyOn('mysql').describe(
  'three instances behind a real nginx (MariaDB and Redis; DB_TYPE=mysql)',
  () => {
    let database: TestDatabase;
    let nginx: Nginx | undefined;
    const ports: number[] = [];
    const apis: ApiProcess[] = [];
    const address = (i: number) => `127.0.0.1:${ports[i]}`;
    const envFor = (port: number): Record<string, string> => ({
      ...databaseEnv(database.config),
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL,
      // nginx is the one hop in front; it appends the client's address to X-Forwarded-For.
      TRUST_PROXY: '1',
      THROTTLE_LIMIT: String(LIMIT),
      THROTTLE_TTL: '300',
      // An hour: only the write announcements on Redis can change another instance's answers.
      CACHE_TTL_MS: '3600000',
      API_TOKENS,
      LOG_LEVEL: 'info',
    });

    /** Starts an instance, waiting up to 2 minutes: the machine may be busy with other suites. */
    const start = (port: number) => startApi(envFor(port), undefined, 480);

    beforeAll(async () => {
      await flushRedisDb(REDIS_URL);
      database = await createTestDatabase();
      for (let i = 0; i < INSTANCES; i++) ports.push(await freePort());
      // One after the other (the first runs the migrations), each kept for afterAll at once.
      for (const port of ports) apis.push(await start(port));
      nginx = await startNginx(ports);
    }, 400_000);

    afterAll(async () => {
      await nginx?.stop();
      for (const api of apis) {
        if (api.child.exitCode === null && api.child.signalCode === null) {
          // A test that failed between the freeze and the kill leaves it stopped.
          api.child.kill('SIGCONT');
          api.child.kill('SIGTERM');
        }
        await api.exited;
      }
      await database?.drop();
    }, 60_000);

    it('loses no acknowledged write and fails only the POSTs in flight on a killed instance', async () => {
      const load = new Load(nginx!.port);
      load.start();
      let killAt = 0;
      let exitedAt = 0;
      let restartedAt = 0;
      try {
        // Every instance has served part of the load.
        const warm = () => Promise.resolve(ports.every((_, i) => load.servedBy(address(i)) >= 10));
        expect(await eventually(warm, { attempts: 400, everyMs: 50 })).toBe(true);

        // Frozen first, so that requests are certainly in flight on it when it dies: every
        // client's next request that nginx sends there waits. Then killed, as a crash would.
        apis[KILLED].child.kill('SIGSTOP');
        let last = -1;
        let quietChecks = 0;
        const allWaiting = () => {
          quietChecks = load.answers.length === last ? quietChecks + 1 : 0;
          last = load.answers.length;
          return Promise.resolve(quietChecks >= 10 && load.waiting.size === CLIENTS);
        };
        expect(await eventually(allWaiting, { attempts: 400, everyMs: 50 })).toBe(true);
        killAt = performance.now();
        apis[KILLED].child.kill('SIGKILL');
        expect(await apis[KILLED].exited).toEqual({ code: null, signal: 'SIGKILL' });
        exitedAt = performance.now();

        // The others carry the load, then the instance starts again on its port and nginx
        // sends it requests again once its fail_timeout has passed.
        const afterKill = () =>
          Promise.resolve(load.answers.filter((a) => a.sentAt > exitedAt).length >= 30);
        expect(await eventually(afterKill, { attempts: 400, everyMs: 50 })).toBe(true);
        apis[KILLED] = await start(ports[KILLED]);
        restartedAt = performance.now();
        const backInTurn = () => Promise.resolve(load.servedBy(address(KILLED), restartedAt) >= 5);
        expect(await eventually(backInTurn, { attempts: 400, everyMs: 50 })).toBe(true);
      } finally {
        await load.stop();
      }

      const { answers, posts } = load;
      // Requests the killed instance had received and lost: nginx tried it first and got no
      // answer (502 for that upstream), sent before it was gone, answered after the kill.
      const lost = answers.filter(
        (a) =>
          a.upstreams[0] === address(KILLED) &&
          a.upstreamStatuses[0] === '502' &&
          a.sentAt <= exitedAt &&
          a.answeredAt >= killAt,
      );
      const failed = answers.filter((a) => !succeeded(a));
      const wasInFlight = lost.filter((a) => a.sentAt < killAt);
      const served = ports.map((_, i) => load.servedBy(address(i)));
      const acknowledged = posts.filter((p) => p.id !== undefined);
      const replaced = posts.filter((p) => p.put && succeeded(p.put.answer));
      console.log(
        `load balancer: ${answers.length} answers (${tally(answers.map((a) => a.status))}), ` +
          `by method ${tally(answers.map((a) => `${a.method}:${a.status}`))}; ` +
          `served by instance ${served.join('/')} (killed: #${KILLED}, ` +
          `${load.servedBy(address(KILLED), restartedAt)} after its restart); ` +
          `writes acknowledged: ${acknowledged.length} POST 201, ${replaced.length} PUT 200; ` +
          `in flight on the killed instance at the kill: ${wasInFlight.length} ` +
          `(${tally(wasInFlight.map((a) => a.method))}), lost there in all: ${lost.length} ` +
          `(${tally(lost.map((a) => `${a.method}->${a.status}`))}); ` +
          `failed: ${failed.length} (${tally(failed.map((a) => `${a.method}:${a.status}`))})`,
      );

      // The kill caught requests in flight, each client having at most one.
      expect(wasInFlight.length).toBeGreaterThanOrEqual(1);
      expect(lost.length).toBeLessThanOrEqual(CLIENTS);
      // The failed answers are exactly the lost POSTs that nginx did not send elsewhere...
      const lostPosts = lost.filter((a) => a.method === 'POST' && a.upstreams.length === 1);
      expect(failed.map(summary)).toEqual(lostPosts.map(summary));
      for (const a of failed) expect(a.status).toBe(502);
      // ...and every other lost request was passed on to a live instance, which answered it.
      for (const a of lost.filter((x) => !lostPosts.includes(x))) {
        expect(succeeded(a)).toBe(true);
        expect(a.upstreams.length).toBeGreaterThanOrEqual(2);
        expect(a.upstreams.at(-1)).not.toBe(address(KILLED));
      }

      // The store: every acknowledged record once, with its id and the values of its last
      // acknowledged write (a replacement whose answer was lost may or may not have been
      // applied); a POST whose answer was lost may have been stored, once; nothing else.
      const { host, port, user, password, name } = database.config;
      const db = await createConnection({ host, port, user, password, database: name });
      const [rows] = (await db.query(
        "SELECT id, country, DATE_FORMAT(date, '%Y-%m-%d') AS date, total_cases, new_cases," +
          ' total_deaths, new_deaths FROM covid_data ORDER BY id',
      )) as unknown as [Json[]];
      await db.end();
      const stored = new Map<string, Json>();
      for (const row of rows) stored.set(`${row.country}|${row.date}`, row);
      expect(stored.size).toBe(rows.length);
      const valuesOf = (row: Json) => ({
        total_cases: Number(row.total_cases),
        new_cases: Number(row.new_cases),
        total_deaths: Number(row.total_deaths),
        new_deaths: Number(row.new_deaths),
      });
      let unacknowledgedStored = 0;
      for (const post of posts) {
        const row = stored.get(`${post.country}|${post.date}`);
        stored.delete(`${post.country}|${post.date}`);
        if (post.id === undefined) {
          if (row) {
            unacknowledgedStored++;
            expect(valuesOf(row)).toEqual(post.values);
          }
          continue;
        }
        expect(row).toBeDefined();
        expect(Number(row.id)).toBe(post.id);
        const possible = !post.put
          ? [post.values]
          : succeeded(post.put.answer)
            ? [post.put.values]
            : [post.values, post.put.values];
        expect(possible).toContainEqual(valuesOf(row));
      }
      expect([...stored.values()]).toEqual([]);
      console.log(
        `load balancer: ${rows.length} rows stored: ${acknowledged.length} acknowledged, ` +
          `${unacknowledgedStored} of the ${posts.length - acknowledged.length} unacknowledged POSTs`,
      );
    }, 300_000);

    it("changes a public route's ETag on every instance after a write through nginx", async () => {
      const reader = token('reader');
      const direct = (i: number) =>
        send(ports[i], 'GET', '/api/covid/public/totals', { token: reader });
      // Every instance, the restarted one included, hears the write announcements.
      for (const port of ports) {
        const subscribed = async () =>
          (await send(port, 'GET', '/api/health')).body?.status === 'ok';
        expect(await eventually(subscribed, { attempts: 100, everyMs: 100 })).toBe(true);
      }
      const before = await Promise.all(ports.map((_, i) => direct(i)));
      expect(before.map((a) => a.status)).toEqual([200, 200, 200]);
      const tag = before[0].headers.etag;
      expect(tag).toMatch(/^"[\w-]+"$/);
      expect(before.map((a) => a.headers.etag)).toEqual([tag, tag, tag]);

      const write = await send(nginx!.port, 'POST', '/api/covid/data', {
        token: token('load0'),
        body: {
          date: '2023-01-01',
          country: 'Iceland',
          total_cases: 777,
          new_cases: 7,
          total_deaths: 1,
          new_deaths: 0,
        },
      });
      expect(write.status).toBe(201);
      expect(write.upstreams).toHaveLength(1);

      // Announced on Redis: each instance drops its cached answer (an hour's CACHE_TTL_MS).
      const after: Answer[] = [];
      for (let i = 0; i < INSTANCES; i++) {
        const changed = async () => {
          after[i] = await direct(i);
          return after[i].headers.etag !== tag;
        };
        expect(await eventually(changed, { attempts: 100, everyMs: 20 })).toBe(true);
      }
      const newTag = after[0].headers.etag;
      expect(after.map((a) => a.headers.etag)).toEqual([newTag, newTag, newTag]);
      expect(after.map((a) => a.body.total_cases - before[0].body.total_cases)).toEqual([
        777, 777, 777,
      ]);
      console.log(
        `load balancer: ETag ${tag} -> ${newTag} on the ${INSTANCES} instances; ` +
          `the write was served by ${write.upstreams[0]}`,
      );
    });

    it.each([
      ['a token client', { token: token('budget'), path: '/api/covid/data?limit=1' }],
      [
        'an address (X-Forwarded-For by nginx)',
        { localAddress: '127.0.0.77', path: '/api/covid/public/totals' },
      ],
    ])(
      'gives %s one budget across the instances: THROTTLE_LIMIT answers, then 429',
      async (_, { path, ...options }) => {
        const answers: Answer[] = [];
        for (let n = 0; n < LIMIT + 2; n++)
          answers.push(await send(nginx!.port, 'GET', path, options));
        expect(answers.map((a) => a.status)).toEqual([...Array<number>(LIMIT).fill(200), 429, 429]);
        // One counter, whichever instance counts: the remainder goes down by one each time.
        expect(answers.slice(0, LIMIT).map((a) => a.headers['x-ratelimit-remaining'])).toEqual(
          Array.from({ length: LIMIT }, (_, n) => String(LIMIT - 1 - n)),
        );
        // The instances answered the refusals themselves, with the API's JSON error.
        for (const refused of answers.slice(LIMIT)) {
          expect(refused.body).toEqual({ error: 'Trop de requêtes. Réessayez plus tard.' });
          expect(refused.upstreams).toHaveLength(1);
        }
        const servedBy = new Set(answers.slice(0, LIMIT).map((a) => a.upstreams.join(',')));
        expect(servedBy.size).toBeGreaterThanOrEqual(2);
        console.log(
          `load balancer: budget of ${LIMIT} spent on ${servedBy.size} instances ` +
            `(${tally(answers.map((a) => `${a.upstreams.join(',')}:${a.status}`))})`,
        );
      },
    );
  },
);
