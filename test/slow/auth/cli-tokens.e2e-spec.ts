import { createHash } from 'node:crypto';
import { TokenService } from '@api/auth/token.service';
import { CliResult, databaseEnv, eventually, runCli } from '../../support/cli';
import { TestApp, bootTestApp } from '../../support/test-app';

const TOKEN_LINE = /^(cmx_[A-Za-z0-9_-]{43})\n$/;

const RECORD = {
  country: 'Chile',
  total_cases: 10,
  new_cases: 1,
  total_deaths: 0,
  new_deaths: 0,
};

function tokenOf(result: CliResult): string {
  expect(result.code).toBe(0);
  const match = TOKEN_LINE.exec(result.stdout);
  expect(match).not.toBeNull();
  return match![1];
}

describe('admin command line: tokens', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let tokens: TokenService;
  const cli = (...args: string[]) => runCli(args, env);
  const get = (token: string) =>
    t.http.get('/api/covid/data').set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    t = await bootTestApp();
    env = databaseEnv(t.config.db);
    tokens = t.app.get(TokenService);
  });
  afterAll(() => t.close());

  it('issues, rotates and revokes a client token end to end through HTTP', async () => {
    const created = await cli('tokens', 'create', 'partner-a');
    const first = tokenOf(created);
    const firstPrefix = first.slice(0, 12);
    expect(created.stderr).toBe(
      `Token issued for "partner-a" (prefix ${firstPrefix}). Store it now: it is never shown again.\n` +
        'Scopes: covid:read,mpox:read (the default: reading only; --scope or "tokens scope" grants more).\n',
    );

    await tokens.refresh();
    expect((await get(first)).status).toBe(200);
    // The API_TOKENS clients keep working beside the database ones.
    expect((await t.http.get('/api/covid/data').set(t.auth('alice'))).status).toBe(200);

    const rotated = await cli('tokens', 'rotate', 'partner-a');
    const second = tokenOf(rotated);
    const secondPrefix = second.slice(0, 12);
    expect(second).not.toBe(first);
    expect(rotated.stderr).toContain(`Old token(s) ${firstPrefix} stay valid until "tokens revoke`);
    await tokens.refresh();
    expect((await get(first)).status).toBe(200);
    expect((await get(second)).status).toBe(200);

    await tokens.flushUsage();
    const listed = await cli('tokens', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CLIENT +PREFIX +CREATED +LAST USED +STATE +RATE LIMIT +SCOPES$/);
    expect(lines).toHaveLength(3);
    for (const [line, prefix] of [
      [lines[1], firstPrefix],
      [lines[2], secondPrefix],
    ]) {
      expect(line).toMatch(
        new RegExp(
          `^partner-a +${prefix.replace(/[-]/g, '\\-')} +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ +valid +default +covid:read,mpox:read$`,
        ),
      );
    }
    expect(listed.stdout).not.toContain(first);
    expect(listed.stdout).not.toContain(second);

    const revokedOld = await cli('tokens', 'revoke', 'partner-a', '--token-prefix', firstPrefix);
    expect(revokedOld).toEqual({
      code: 0,
      stdout: 'Revoked 1 token(s) of "partner-a".\n',
      stderr: '',
    });
    await tokens.refresh();
    const refused = await get(first);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'Jeton invalide.' });
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    expect((await get(second)).status).toBe(200);

    const revokedAll = await cli('tokens', 'revoke', 'partner-a');
    expect(revokedAll.code).toBe(0);
    expect(revokedAll.stdout).toBe('Revoked 1 token(s) of "partner-a".\n');
    await tokens.refresh();
    expect((await get(second)).body).toEqual({ error: 'Jeton invalide.' });

    const after = await cli('tokens', 'list');
    expect(after.stdout).toMatch(
      new RegExp(`${firstPrefix.replace(/-/g, '\\-')} .* revoked \\d{4}-`),
    );
    expect(after.stdout.match(/ revoked /g)).toHaveLength(2);
  });

  it('stores only the SHA-256 of a token and its prefix', async () => {
    const token = tokenOf(await cli('tokens', 'create', 'hash-check'));
    const rows = await t.dataSource.query<Record<string, unknown>[]>(
      "SELECT * FROM api_tokens WHERE client = 'hash-check'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0].prefix).toBe(token.slice(0, 12));
    expect(Object.values(rows[0]).map(String)).not.toContain(token);
  });

  it('revokes on the periodic check alone, within seconds, without any explicit refresh', async () => {
    const token = tokenOf(await cli('tokens', 'create', 'poll-check'));
    expect(await eventually(async () => (await get(token)).status === 200)).toBe(true);
    expect((await cli('tokens', 'revoke', 'poll-check')).code).toBe(0);
    expect(await eventually(async () => (await get(token)).status === 401)).toBe(true);
  });

  it('keeps the old token valid during a --grace period', async () => {
    const old = tokenOf(await cli('tokens', 'create', 'grace-check'));
    const rotated = await cli('tokens', 'rotate', 'grace-check', '--grace', '1h');
    const next = tokenOf(rotated);
    expect(rotated.stderr).toMatch(/stay valid until \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\.\n$/);
    await tokens.refresh();
    expect((await get(old)).status).toBe(200);
    expect((await get(next)).status).toBe(200);
    const listed = await cli('tokens', 'list');
    expect(listed.stdout).toMatch(
      new RegExp(`grace-check +${old.slice(0, 12).replace(/-/g, '\\-')} .* valid until \\d{4}-`),
    );
  });

  it('refuses the old token once the grace period is over', async () => {
    const old = tokenOf(await cli('tokens', 'create', 'expiry-check'));
    await tokens.refresh();
    expect((await get(old)).status).toBe(200);
    const next = tokenOf(await cli('tokens', 'rotate', 'expiry-check', '--grace', '1s'));
    expect(await eventually(async () => (await get(old)).status === 401)).toBe(true);
    await tokens.refresh();
    expect((await get(next)).status).toBe(200);
    expect((await cli('tokens', 'list')).stdout).toMatch(/expiry-check .* expired \d{4}-/);
  });

  it('refuses bad input with a clear message and a non-zero exit code', async () => {
    const cases: [string[], number, string | RegExp][] = [
      [['tokens', 'create'], 2, "error: missing required argument 'client'"],
      [['tokens', 'create', 'bad name'], 2, 'error: invalid client name "bad name"'],
      [['tokens', 'create', 'a', 'b'], 2, 'error: too many arguments'],
      [['tokens', 'rotate', 'nobody'], 1, 'error: client "nobody" has no valid token to rotate'],
      [['tokens', 'rotate', 'x', '--grace', '10 years'], 2, 'error: --grace must be a duration'],
      [['tokens', 'revoke', 'nobody'], 1, 'error: client "nobody" has no token left to revoke'],
      [
        ['tokens', 'revoke', 'x', '--token-prefix'],
        2,
        "error: option '--token-prefix <prefix>' argument missing",
      ],
      [['tokens', 'frobnicate'], 2, "error: unknown command 'frobnicate'"],
      [['nonsense'], 2, "error: unknown command 'nonsense'"],
    ];
    for (const [args, code, message] of cases) {
      const result = await cli(...args);
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr).toContain(message);
    }
    tokenOf(await cli('tokens', 'create', 'twice'));
    const again = await cli('tokens', 'create', 'twice');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'error: client "twice" already has a valid token: use "tokens rotate twice" to issue another\n',
    );
  });

  it('refuses the names the service writes under; one issued before works on, flagged', async () => {
    const refusal = (name: string) =>
      `error: client name "${name}" is reserved: the service writes its own history under ` +
      'revert, restore, cli:..., import:..., sync:..., migration:..., case ignored\n';
    const names = ['REVERT', 'Restore', 'cli:x', 'Import:a.csv', 'MIGRATION:b'];
    for (const name of names) {
      expect({ name, ...(await cli('tokens', 'create', name)) }).toEqual({
        name,
        code: 2,
        stdout: '',
        stderr: refusal(name),
      });
    }
    const count =
      "SELECT COUNT(*) AS n FROM api_tokens WHERE LOWER(client) IN ('revert', 'restore')";
    expect(Number((await t.dataSource.query<{ n: number }[]>(count))[0].n)).toBe(0);

    // A token issued under such a name before they were refused.
    const token = 'reserved-before-0123456789';
    await t.dataSource.query(
      `INSERT INTO api_tokens (client, token_hash, prefix, created_at, revision, scopes)
       VALUES ('Revert', ?, 'reserved-bef', 1000, ?, 'covid:read')`,
      [createHash('sha256').update(token).digest('hex'), Date.now()],
    );
    await tokens.refresh();
    expect((await get(token)).status).toBe(200);
    expect(await cli('tokens', 'rotate', 'revert')).toEqual({
      code: 2,
      stdout: '',
      stderr: refusal('revert'),
    });
    const listed = await cli('tokens', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /\nRevert +reserved-bef +1970-01-01 00:00:01Z +(never|[\d-]+ [\d:]+Z) +valid, reserved name +default +covid:read\n/,
    );
    expect(listed.stderr).toBe(
      'warning: "Revert" is a name the service writes its own history under: its writes pass ' +
        "for the command line's; issue its tokens under another name, then revoke these\n",
    );
    expect(await cli('tokens', 'revoke', 'revert')).toEqual({
      code: 0,
      stdout: 'Revoked 1 token(s) of "revert".\n',
      stderr: '',
    });
    // Ten runs of the command line: slow on a loaded host.
  }, 180_000);

  it('matches client names ignoring case, on both databases', async () => {
    const token = tokenOf(await cli('tokens', 'create', 'Acme'));
    const again = await cli('tokens', 'create', 'ACME');
    expect(again).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: client "ACME" already has a valid token: use "tokens rotate ACME" to issue another\n',
    });
    expect(await cli('tokens', 'revoke', 'acme')).toEqual({
      code: 0,
      stdout: 'Revoked 1 token(s) of "acme".\n',
      stderr: '',
    });
    await tokens.refresh();
    expect((await get(token)).status).toBe(401);
  });

  it('keeps one client whatever the letter case: one spelling, one budget, one actor', async () => {
    const first = tokenOf(await cli('tokens', 'create', 'Partner'));
    const rotated = await cli('tokens', 'rotate', 'PARTNER');
    const second = tokenOf(rotated);
    expect(rotated.stderr).toMatch(/^New token for "Partner" \(prefix /);
    expect((await cli('tokens', 'scope', 'partner', 'covid:read,covid:write')).code).toBe(0);
    await tokens.refresh();
    const ids: number[] = [];
    for (const [i, token] of [first, second].entries()) {
      const res = await t.http
        .post('/api/covid/data')
        .set('Authorization', `Bearer ${token}`)
        .send({ ...RECORD, country: 'Casefold', date: `2021-01-0${i + 1}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id as number);
    }
    for (const id of ids) {
      const history = await t.http.get(`/api/covid/data/${id}/history`).set(t.auth());
      expect(history.body).toEqual([expect.objectContaining({ actor: 'Partner' })]);
    }
    const listed = (await cli('tokens', 'list')).stdout.split('\n');
    const rows = listed.filter((line) => /^partner /i.test(line));
    expect(rows).toHaveLength(2);
    expect(rows.every((line) => line.startsWith('Partner '))).toBe(true);

    // One budget for both tokens: five requests in all (the two POSTs above included),
    // whichever token sends them.
    expect(await cli('tokens', 'limit', 'PaRtNeR', '5/60')).toMatchObject({ code: 0 });
    await tokens.refresh();
    const statuses = [];
    for (const token of [first, second, first, second]) statuses.push((await get(token)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    expect(await cli('tokens', 'revoke', 'PARTNER')).toEqual({
      code: 0,
      stdout: 'Revoked 2 token(s) of "PARTNER".\n',
      stderr: '',
    });
    // A later first token keeps the first spelling.
    const again = await cli('tokens', 'create', 'PARTNER');
    expect(again.stderr).toMatch(/^Token issued for "Partner" \(prefix /);
  });

  it('issues one first token when several "tokens create" of one client run at once', async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => cli('tokens', 'create', 'race')),
    );
    expect(runs.filter((r) => r.code === 0)).toHaveLength(1);
    for (const refused of runs.filter((r) => r.code !== 0)) {
      expect(refused).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'error: client "race" already has a valid token: use "tokens rotate race" to issue another\n',
      });
    }
    const listed = await cli('tokens', 'list');
    expect(listed.stdout.split('\n').filter((line) => line.startsWith('race '))).toHaveLength(1);
  });

  it('grants scopes with --scope, keeps them on rotation and changes them with "tokens scope"', async () => {
    const created = await cli('tokens', 'create', 'feeder', '--scope', 'covid:write, covid:write');
    const token = tokenOf(created);
    expect(created.stderr).toMatch(/\nScopes: covid:write\.\n$/);
    await tokens.refresh();
    const post = (date: string) =>
      t.http
        .post('/api/covid/data')
        .set('Authorization', `Bearer ${token}`)
        .send({ ...RECORD, date });
    expect((await post('2023-01-01')).status).toBe(201);
    const read = await get(token);
    expect(read.status).toBe(403);
    expect(read.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="covid:read"',
    );

    const rotated = tokenOf(await cli('tokens', 'rotate', 'feeder'));
    await tokens.refresh();
    expect((await get(rotated)).status).toBe(403);

    expect(await cli('tokens', 'scope', 'feeder', 'covid:read,covid:write')).toEqual({
      code: 0,
      stdout: 'Scopes of "feeder": covid:read,covid:write.\n',
      stderr: '',
    });
    await tokens.refresh();
    for (const each of [token, rotated]) expect((await get(each)).status).toBe(200);

    const narrowed = tokenOf(await cli('tokens', 'rotate', 'feeder', '--scope', 'mpox:read'));
    await tokens.refresh();
    for (const each of [token, rotated, narrowed]) expect((await get(each)).status).toBe(403);
    const listed = (await cli('tokens', 'list')).stdout
      .split('\n')
      .filter((line) => line.startsWith('feeder '));
    expect(listed).toHaveLength(3);
    for (const line of listed) expect(line).toMatch(/ valid +default +mpox:read$/);
  });

  it('refuses an unknown scope with exit code 2 and changes nothing', async () => {
    const known = 'covid:read, covid:write, mpox:read, mpox:write, sources:read, metrics:read';
    const cases: [string[], string][] = [
      [
        ['tokens', 'create', 'typo', '--scope', 'covid:read,covid:delete'],
        `error: unknown scope "covid:delete" in --scope: expected a comma-separated list of ${known}\n`,
      ],
      [
        ['tokens', 'create', 'typo', '--scope', ''],
        `error: unknown scope "" in --scope: expected a comma-separated list of ${known}\n`,
      ],
      [
        ['tokens', 'scope', 'feeder', 'admin'],
        `error: unknown scope "admin" in the scope list: expected a comma-separated list of ${known}\n`,
      ],
      [
        ['tokens', 'rotate', 'feeder', '--scope', 'read'],
        `error: unknown scope "read" in --scope: expected a comma-separated list of ${known}\n`,
      ],
    ];
    // Every column but "last used", which the API writes in the background.
    const listed = async () =>
      (await cli('tokens', 'list')).stdout
        .split('\n')
        .map((line) => line.split(/ {2,}/).filter((_, i) => i !== 3));
    const before = await listed();
    for (const [args, stderr] of cases) {
      expect({ args, result: await cli(...args) }).toEqual({
        args,
        result: { code: 2, stdout: '', stderr },
      });
    }
    expect(await listed()).toEqual(before);
    expect(await cli('tokens', 'scope', 'nobody', 'covid:read')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: client "nobody" has no token: use "tokens create nobody" first\n',
    });
  });

  it('narrows a client on a second instance within TOKEN_REFRESH_MS', async () => {
    const second = await bootTestApp({}, {}, t);
    try {
      const token = tokenOf(
        await cli('tokens', 'create', 'narrowed', '--scope', 'mpox:read,mpox:write'),
      );
      const remove = () =>
        second.http.delete('/api/mpox/data/999999').set('Authorization', `Bearer ${token}`);
      // Allowed: the record does not exist (404), which a refused write would never say.
      expect(await eventually(async () => (await remove()).status === 404)).toBe(true);
      expect((await cli('tokens', 'scope', 'narrowed', 'mpox:read')).code).toBe(0);
      expect(await eventually(async () => (await remove()).status === 403)).toBe(true);
      const refused = await remove();
      expect(refused.body).toEqual({ error: 'Ce jeton ne permet pas cette opération.' });
      expect(refused.headers['www-authenticate']).toBe(
        'Bearer error="insufficient_scope", scope="mpox:write"',
      );
    } finally {
      await second.app.close();
    }
  });

  it('refuses a bad configuration with the variable named', async () => {
    const result = await runCli(['tokens', 'list'], { ...env, DB_TYPE: 'oracle' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DB_TYPE must be "sqlite" or "mysql"');
  });
});

describe('admin command line: token changes announced through Redis', () => {
  let t: TestApp;
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379/1' };

  beforeAll(async () => {
    // A one-minute periodic check: only the Redis announcement can make the change visible fast.
    t = await bootTestApp({ ...redis, TOKEN_REFRESH_MS: '60000' });
  });
  afterAll(() => t.close());

  it('makes a new token and its revocation visible at once on the API instance', async () => {
    const env = { ...databaseEnv(t.config.db), ...redis };
    const token = tokenOf(await runCli(['tokens', 'create', 'redis-check'], env));
    const get = () => t.http.get('/api/covid/data').set('Authorization', `Bearer ${token}`);
    expect(await eventually(async () => (await get()).status === 200)).toBe(true);
    expect((await runCli(['tokens', 'scope', 'redis-check', 'mpox:read'], env)).code).toBe(0);
    expect(await eventually(async () => (await get()).status === 403)).toBe(true);
    expect((await runCli(['tokens', 'revoke', 'redis-check'], env)).code).toBe(0);
    expect(await eventually(async () => (await get()).status === 401)).toBe(true);
  });
});

describe('admin command line: a new token works at once, without Redis', () => {
  let t: TestApp;

  beforeAll(async () => {
    // No Redis and a one-minute periodic check: only the look an unknown token prompts can find it.
    t = await bootTestApp({ TOKEN_REFRESH_MS: '60000' });
  });
  afterAll(() => t.close());

  it('answers the first request made with it, then refuses a token that does not exist', async () => {
    const env = databaseEnv(t.config.db);
    // The instance has looked at the store since it started; the token is made afterwards.
    expect((await t.http.get('/api/covid/data').set('Authorization', 'Bearer nope')).status).toBe(
      401,
    );
    const token = tokenOf(await runCli(['tokens', 'create', 'at-once'], env));
    const res = await t.http.get('/api/covid/data?limit=1').set('Authorization', `Bearer ${token}`);
    expect([res.status, res.body]).toEqual([200, []]);
    const unknown = await t.http.get('/api/covid/data').set('Authorization', 'Bearer cmx_unknown');
    expect([unknown.status, unknown.body]).toEqual([401, { error: 'Jeton invalide.' }]);
  });
});
