import { TokenService } from '@api/auth/token.service';
import { cliTestBed, flushRedisDb } from '../../support/cli-test-bed';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

/** A Redis database of this file's own (the other files use 0 to 5 and 7). */
const REDIS_URL = 'redis://127.0.0.1:6379/6';
const STATIC_TOKENS = `alice:${TOKENS.alice}:3/60,bob:${TOKENS.bob}`;
const TOO_MANY = { error: 'Trop de requêtes. Réessayez plus tard.' };

async function get(t: TestApp, bearer: string) {
  return t.http.get('/api/covid/countries').set({ Authorization: `Bearer ${bearer}` });
}

describe('per-client rate budgets', () => {
  it('applies a static token’s own budget (API_TOKENS name:token:3/60), others keep the default', async () => {
    const t = await bootTestApp({ API_TOKENS: STATIC_TOKENS, THROTTLE_LIMIT: '50' });
    try {
      for (let i = 1; i <= 3; i++) {
        const res = await get(t, TOKENS.alice);
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('3');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
      }
      const refused = await get(t, TOKENS.alice);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(TOO_MANY);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      const other = await get(t, TOKENS.bob);
      expect(other.status).toBe(200);
      expect(other.headers['x-ratelimit-limit']).toBe('50');
    } finally {
      await t.close();
    }
  });

  it('shares a client’s budget across instances through Redis', async () => {
    await flushRedisDb(REDIS_URL);
    const env = { API_TOKENS: STATIC_TOKENS, REDIS_URL };
    const instances = [await bootTestApp(env), await bootTestApp(env)];
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(instances[i % 2], TOKENS.alice)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await get(instances[0], TOKENS.alice)).status).toBe(429);
      expect((await get(instances[1], TOKENS.bob)).status).toBe(200);
    } finally {
      await Promise.all(instances.map((t) => t.close()));
    }
  });

  it('refuses a malformed budget in API_TOKENS at start-up, naming the variable', () => {
    return expect(bootTestApp({ API_TOKENS: `alice:${TOKENS.alice}:0/60` })).rejects.toThrow(
      'API_TOKENS: the budget of "alice" must be <requests>/<window>',
    );
  });

  describe('set with the admin command line, on a running API', () => {
    const bed = cliTestBed('covid-budgets-test-');
    const { cli } = bed;
    const refresh = () => bed.t.app.get(TokenService).refresh();

    it('tokens create --rate-limit: the 4th request within the window is refused', async () => {
      const created = await cli('tokens', 'create', 'carol', '--rate-limit', '3/1m');
      expect(created.code).toBe(0);
      await refresh();
      const token = created.stdout.trim();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(bed.t, token)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await get(bed.t, TOKENS.bob)).status).toBe(200);
    });

    it('tokens limit sets and clears a budget; rotate keeps it; list shows it', async () => {
      const dave = (await cli('tokens', 'create', 'dave')).stdout.trim();
      const set = await cli('tokens', 'limit', 'dave', '2/60');
      expect(set).toMatchObject({ code: 0, stdout: 'Rate limit of "dave": 2/60s.\n' });
      await refresh();
      expect([(await get(bed.t, dave)).status, (await get(bed.t, dave)).status]).toEqual([
        200, 200,
      ]);
      expect((await get(bed.t, dave)).status).toBe(429);

      expect((await cli('tokens', 'create', 'erin', '--rate-limit', '1/1h')).code).toBe(0);
      const rotated = (await cli('tokens', 'rotate', 'erin')).stdout.trim();
      const list = (await cli('tokens', 'list')).stdout.split('\n');
      expect(list[0]).toMatch(/^CLIENT +PREFIX +CREATED +LAST USED +STATE +RATE LIMIT +SCOPES$/);
      const limits = (client: string) =>
        list.filter((l) => l.startsWith(`${client} `)).map((l) => l.split(/ {2,}/).at(-2));
      expect(limits('erin')).toEqual(['1/3600s', '1/3600s']);
      expect(limits('carol')).toEqual(['3/60s']);
      expect(limits('dave')).toEqual(['2/60s']);

      const cleared = await cli('tokens', 'limit', 'erin', 'none');
      expect(cleared).toMatchObject({ code: 0, stdout: 'Rate limit of "erin": the default.\n' });
      await refresh();
      for (let i = 0; i < 3; i++) {
        const res = await get(bed.t, rotated);
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('100000');
      }
    }, 120_000);

    it('refuses bad budgets with a clear line and changes nothing', async () => {
      // Every column but "last used", which the API writes in the background.
      const listed = async () =>
        (await cli('tokens', 'list')).stdout
          .split('\n')
          .map((line) => line.split(/ {2,}/).filter((_, i) => i !== 3));
      const before = await listed();
      for (const [args, code, message] of [
        [['tokens', 'create', 'frank', '--rate-limit', '0/60'], 2, 'invalid --rate-limit "0/60"'],
        [['tokens', 'limit', 'dave', 'abc'], 2, 'invalid rate limit "abc"'],
        [['tokens', 'limit', 'dave', '10/0'], 2, 'invalid rate limit "10/0"'],
        [['tokens', 'limit', 'nobody', '5/60'], 1, 'client "nobody" has no token'],
      ] as const) {
        const result = await cli(...args);
        expect(result.code).toBe(code);
        expect(result.stderr.split('\n')[0]).toContain(message);
      }
      expect(await listed()).toEqual(before);
    }, 120_000);
  });
});
