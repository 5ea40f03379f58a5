/**
 * `npm run soak`: the long overload run, against the built server in its own process.
 *
 * One stream of requests comes from ever new client addresses (X-Forwarded-For, sent from loopback
 * with TRUST_PROXY=loopback), each within its budget; another floods from one address, above the
 * limit. The server's resident memory is sampled throughout: with idle rate-limit counters swept
 * every TTL it must level off instead of growing with the number of addresses seen.
 *
 * Environment: SOAK_SECONDS (default 120), SOAK_PORT (3410), SOAK_CONNECTIONS (20),
 * SOAK_TTL (5 s), SOAK_LIMIT (20).
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { productionStartCommand } from '../../test/support/start-command';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const PORT = Number(process.env.SOAK_PORT ?? 3410);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 20);
const TTL = Number(process.env.SOAK_TTL ?? 5);
const LIMIT = Number(process.env.SOAK_LIMIT ?? 20);
/** The project root, from dist/soak/bench/soak where this runs once compiled. */
const ROOT = join(__dirname, '../../../..');
/** The server starts as `npm run start:prod` starts it, Node flags included. */
const { nodeFlags, main: MAIN } = productionStartCommand(ROOT);
const BASE = `http://127.0.0.1:${PORT}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

async function waitForHealth(server: ChildProcess): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null) throw new Error('the server stopped during start-up');
    try {
      if ((await fetch(`${BASE}/api/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('the server did not become healthy within 30 s');
}

function address(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'covid-api-soak-'));
  const server = spawn(process.execPath, [...nodeFlags, MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DB_TYPE: 'sqlite',
      DB_PATH: join(dir, 'soak.sqlite'),
      API_TOKENS: 'soak:soak-token-0123456789',
      THROTTLE_LIMIT: String(LIMIT),
      THROTTLE_TTL: String(TTL),
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'error',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth(server);
    const pid = server.pid!;
    const samples: { second: number; rss: number }[] = [{ second: 0, rss: rssMiB(pid) }];
    const started = Date.now();
    const sampler = setInterval(() => {
      samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMiB(pid) });
    }, 5000);

    let next = 0;
    const distinct = autocannon({
      url: BASE,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'GET',
          path: '/api/covid/public/latest',
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'x-forwarded-for': address(next++) },
          }),
        },
      ],
    });
    const flood = autocannon({
      url: `${BASE}/api/covid/public/totals`,
      connections: 2,
      duration: SECONDS,
      headers: { 'x-forwarded-for': '203.0.113.99' },
    });
    const [fresh, flooded] = await Promise.all([distinct, flood]);
    clearInterval(sampler);
    samples.push({ second: SECONDS, rss: rssMiB(pid) });

    const retry = await fetch(`${BASE}/api/covid/public/totals`, {
      headers: { 'x-forwarded-for': '203.0.113.99' },
    });
    const third = Math.max(1, Math.floor(samples.length / 3));
    const early = Math.max(...samples.slice(0, third).map((s) => s.rss));
    const late = Math.max(...samples.slice(-third).map((s) => s.rss));
    const codes = (result: autocannon.Result) =>
      Object.entries(result.statusCodeStats ?? {})
        .map(([code, stat]) => `${code}×${stat.count ?? 0}`)
        .join(' ');
    const report = [
      `soak: ${SECONDS} s, THROTTLE_LIMIT=${LIMIT} THROTTLE_TTL=${TTL}`,
      `distinct addresses: ${next} requests from ${next} addresses, ${fresh.requests.average} req/s; ${codes(fresh)}`,
      `flooding address: ${flooded.requests.total} requests; ${codes(flooded)}; after the run: ${retry.status}, Retry-After ${retry.headers.get('retry-after') ?? '-'}`,
      `resident memory (MiB) every 5 s: ${samples.map((s) => s.rss).join(' ')}`,
      `largest in the first third ${early} MiB, in the last third ${late} MiB`,
    ];
    process.stdout.write(`${report.join('\n')}\n`);
    const failures: string[] = [];
    if (Object.keys(fresh.statusCodeStats ?? {}).some((code) => code !== '200')) {
      failures.push('a client within its budget got something else than 200');
    }
    if (!flooded.statusCodeStats?.['429']) failures.push('the flood never got 429');
    if (late > early * 1.5 + 20) failures.push('memory kept growing with the addresses seen');
    if (failures.length) {
      process.stdout.write(`FAILED: ${failures.join('; ')}\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(
        'OK: memory levelled off; within-budget clients served; flood refused\n',
      );
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
