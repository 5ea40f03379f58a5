/**
 * The rate limit counts a caller by the address the API can vouch for. Behind a real nginx, with
 * TRUST_PROXY set to the number of proxies or to the proxy's address, a client that forges a new
 * X-Forwarded-For on every request still spends one budget, its own; straight to the API, with
 * TRUST_PROXY unset, the header is ignored altogether. Clients call from distinct loopback
 * addresses (Linux accepts any 127.x source), so each one is a real, distinct peer.
 */
import { IncomingHttpHeaders, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { Nginx, startNginx } from '../../support/nginx';
import { TestApp, bootTestApp } from '../../support/test-app';

const LIMIT = 3;
const TTL_SECONDS = 60;
const THROTTLED = { THROTTLE_LIMIT: String(LIMIT), THROTTLE_TTL: String(TTL_SECONDS) };
const PUBLIC_ROUTE = '/api/covid/public/latest';
const FORGER = '127.0.0.2';
const NEIGHBOUR = '127.0.0.3';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** One request on a connection of its own, from `localAddress`. */
function get(port: number, localAddress: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: PUBLIC_ROUTE, localAddress, headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function listen(t: TestApp): Promise<number> {
  await t.app.listen(0, '127.0.0.1');
  return (t.app.getHttpServer().address() as AddressInfo).port;
}

/**
 * A client that writes a fresh X-Forwarded-For on every request is refused once its budget is
 * spent, and another client, from another address, still has its own.
 */
async function expectForgedHeadersToBuyNothing(port: number): Promise<void> {
  const answers: Answer[] = [];
  for (let n = 1; n <= LIMIT + 1; n++) {
    answers.push(await get(port, FORGER, { 'X-Forwarded-For': `10.9.9.${n}` }));
  }
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
  const served = answers.slice(0, LIMIT);
  expect(served.map((a) => a.body)).toEqual([[], [], []]);
  expect(served.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);

  const refused = answers[LIMIT];
  expect(refused.body).toEqual({ error: 'Trop de requêtes. Réessayez plus tard.' });
  expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
  const retryAfter = Number(refused.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(TTL_SECONDS);

  // The neighbour even forges the forger's first header: its key is its own address all the same.
  const neighbour = await get(port, NEIGHBOUR, { 'X-Forwarded-For': '10.9.9.1' });
  expect(neighbour.status).toBe(200);
  expect(neighbour.body).toEqual([]);
  expect(neighbour.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
}

describe.each([
  ['1', 'the number of proxies in front'],
  ['127.0.0.1', "the proxy's address"],
])('behind a real nginx, with TRUST_PROXY=%s (%s)', (trustProxy) => {
  let t: TestApp | undefined;
  let nginx: Nginx | undefined;
  beforeAll(async () => {
    t = await bootTestApp({ ...THROTTLED, TRUST_PROXY: trustProxy });
    nginx = await startNginx(await listen(t));
  });
  afterAll(async () => {
    await nginx?.stop();
    await t?.close();
  });

  it('counts each client by the address nginx saw, whatever X-Forwarded-For it sends', async () => {
    await expectForgedHeadersToBuyNothing(nginx!.port);
  });
});

describe('straight to the API, with TRUST_PROXY unset', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await bootTestApp(THROTTLED);
    port = await listen(t);
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For and counts each client by its own address', async () => {
    expect(t.config.trustProxy).toBe(false);
    await expectForgedHeadersToBuyNothing(port);
  });
});
