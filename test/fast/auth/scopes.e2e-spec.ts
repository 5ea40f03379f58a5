/**
 * Least privilege: every token route answers 2xx to a token with its scope and 403 without it
 * (and a refused write changes nothing); 401 stays 401; refusals count against the rate limit and
 * are logged with the client's name; a route that declares no scope keeps the API from starting.
 */
import { Controller, Get, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { SCOPES, Scope } from '@app/config';
import { Public } from '@api/auth/public.decorator';
import { RequireScope } from '@api/auth/require-scope.decorator';
import { ScopeDeclarationCheck } from '@api/auth/scope-declaration-check.service';
import { appRoutes } from '../../support/app-routes';
import { snapshot } from '../../support/table-snapshot';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const FORBIDDEN = { error: 'Ce jeton ne permet pas cette opération.' };

/** One client per scope, one with both read scopes, and one without any scope list (all). */
const CLIENTS: Record<string, { token: string; scopes: readonly Scope[] }> = {
  ...Object.fromEntries(
    SCOPES.map((scope) => [
      `only-${scope.replace(':', '-')}`,
      { token: `tok-${scope.replace(':', '-')}-0123456789`, scopes: [scope] },
    ]),
  ),
  readers: { token: 'tok-readers-0123456789', scopes: ['covid:read', 'mpox:read'] },
};
const API_TOKENS = [
  ...Object.entries(CLIENTS).map(
    ([client, { token, scopes }]) => `${client}:${token}:scopes=${scopes.join('+')}`,
  ),
  `everything:${TOKENS.alice}`,
].join(',');

const record = (date: string) => ({
  date,
  country: 'Chile',
  total_cases: 10,
  new_cases: 1,
  total_deaths: 0,
  new_deaths: 0,
});

interface TokenRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** As the OpenAPI document names it (matched against the app's own routes). */
  template: string;
  scopes: Scope[];
  /** The request, made fresh for each call (writes need records of their own). */
  call(t: TestApp, token: string, n: number): Promise<{ status: number; body: unknown }>;
  success: number;
}

/** Every token route of the application (checked against its controllers below). */
function tokenRoutes(): TokenRoute[] {
  const routes: TokenRoute[] = [];
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  for (const key of ['covid', 'mpox'] as const) {
    const read: Scope[] = [`${key}:read`];
    const write: Scope[] = [`${key}:write`];
    /** A record written by the all-scopes client, for PUT and DELETE to act on. */
    const existing = async (t: TestApp, n: number) => {
      const created = await t.http
        .post(`/api/${key}/data`)
        .set(bearer(TOKENS.alice))
        .send(record(dateOf(n + 2000)));
      return (created.body as { id: number }).id;
    };
    routes.push(
      {
        method: 'get',
        template: `/api/${key}/data`,
        scopes: read,
        success: 200,
        call: (t, token) => t.http.get(`/api/${key}/data`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/data/{id}`,
        scopes: read,
        success: 200,
        call: async (t, token, n) =>
          t.http.get(`/api/${key}/data/${await existing(t, n)}`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/data/{id}/history`,
        scopes: read,
        success: 200,
        call: async (t, token, n) =>
          t.http.get(`/api/${key}/data/${await existing(t, n)}/history`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/changes`,
        scopes: read,
        success: 200,
        call: (t, token) => t.http.get(`/api/${key}/changes?limit=1`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/corrections`,
        scopes: read,
        success: 200,
        call: (t, token) => t.http.get(`/api/${key}/corrections?limit=1`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/vintages`,
        scopes: read,
        success: 200,
        call: (t, token) => t.http.get(`/api/${key}/vintages?limit=1`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/series`,
        scopes: read,
        success: 200,
        call: (t, token) =>
          t.http.get(`/api/${key}/series?country=Chile&metrics=new_cases`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/countries`,
        scopes: read,
        success: 200,
        call: (t, token) => t.http.get(`/api/${key}/countries`).set(bearer(token)),
      },
      {
        method: 'get',
        template: `/api/${key}/stats`,
        scopes: read,
        success: 200,
        call: (t, token) => t.http.get(`/api/${key}/stats?country=Chile`).set(bearer(token)),
      },
      {
        method: 'post',
        template: `/api/${key}/data`,
        scopes: write,
        success: 201,
        call: (t, token, n) =>
          t.http
            .post(`/api/${key}/data`)
            .set(bearer(token))
            .send(record(dateOf(n))),
      },
      {
        method: 'post',
        template: `/api/${key}/data/bulk`,
        scopes: write,
        success: 200,
        call: (t, token, n) =>
          t.http
            .post(`/api/${key}/data/bulk`)
            .set(bearer(token))
            .send([record(dateOf(n + 1000))]),
      },
      {
        method: 'put',
        template: `/api/${key}/data/{id}`,
        scopes: write,
        success: 200,
        call: async (t, token, n) =>
          t.http
            .put(`/api/${key}/data/${await existing(t, n)}`)
            .set(bearer(token))
            .send(record(dateOf(n + 3000))),
      },
      {
        method: 'delete',
        template: `/api/${key}/data/{id}`,
        scopes: write,
        success: 200,
        call: async (t, token, n) =>
          t.http.delete(`/api/${key}/data/${await existing(t, n)}`).set(bearer(token)),
      },
    );
  }
  routes.push(
    {
      method: 'get',
      template: '/api/stats/summary',
      scopes: ['covid:read', 'mpox:read'],
      success: 200,
      call: (t, token) => t.http.get('/api/stats/summary').set(bearer(token)),
    },
    {
      method: 'get',
      template: '/api/sources',
      scopes: ['sources:read'],
      success: 200,
      call: (t, token) => t.http.get('/api/sources').set(bearer(token)),
    },
    {
      method: 'get',
      template: '/api/metrics',
      scopes: ['metrics:read'],
      success: 200,
      call: (t, token) => t.http.get('/api/metrics').set(bearer(token)),
    },
  );
  return routes;
}

/** A distinct past date per call: 2024-12-31 minus `n` days. */
function dateOf(n: number): string {
  return new Date(Date.UTC(2024, 11, 31) - n * 86_400_000).toISOString().slice(0, 10);
}

describe('scopes', () => {
  let t: TestApp;
  let calls = 0;
  beforeAll(async () => {
    t = await bootTestApp({ API_TOKENS });
    // `stats?country=Chile` needs a record of that country.
    for (const key of ['covid', 'mpox']) {
      const seeded = await t.http
        .post(`/api/${key}/data`)
        .set('Authorization', `Bearer ${TOKENS.alice}`)
        .send(record('2018-01-01'));
      expect(seeded.status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('covers every token route of the application, each with its declared scopes', () => {
    const declared = appRoutes(t.app)
      .filter((route) => !route.isPublic)
      .map((route) => `${route.method} ${route.path} ${route.scopes?.join('+')}`)
      .sort();
    const tested = tokenRoutes()
      .map((route) => `${route.method} ${route.template} ${route.scopes.join('+')}`)
      .sort();
    expect(tested).toEqual(declared);
  });

  const matrix = tokenRoutes().flatMap((route) =>
    Object.entries(CLIENTS).map(([client, held]) => {
      const allowed = route.scopes.every((scope) => held.scopes.includes(scope));
      return [route.method.toUpperCase(), route.template, client, allowed, route] as const;
    }),
  );

  it.each(matrix)(
    '%s %s with the token of %s: allowed %p',
    async (...[, , client, allowed, route]) => {
      const before = await snapshot(t.dataSource);
      const res = await route.call(t, CLIENTS[client].token, ++calls);
      if (allowed) {
        expect(res.status).toBe(route.success);
        return;
      }
      const after = await snapshot(t.dataSource);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
      expect((res as unknown as { headers: Record<string, string> }).headers).toMatchObject({
        'www-authenticate': `Bearer error="insufficient_scope", scope="${route.scopes.join(' ')}"`,
        'content-type': 'application/json; charset=utf-8',
      });
      // PUT and DELETE first create their record with the all-scopes token: compare without it.
      if (route.method === 'post') expect(after).toBe(before);
      else expect(await snapshot(t.dataSource)).toBe(after);
    },
  );

  it.each(tokenRoutes().map((route) => [route.method.toUpperCase(), route.template, route]))(
    '%s %s answers 2xx to a token without a scope list (every right, as before scopes)',
    async (...[, , route]) => {
      const res = await route.call(t, TOKENS.alice, ++calls);
      expect(res.status).toBe(route.success);
    },
  );

  it('leaves a refused PUT or DELETE record exactly as it was', async () => {
    const created = await t.http
      .post('/api/covid/data')
      .set('Authorization', `Bearer ${TOKENS.alice}`)
      .send(record('2019-06-01'));
    const id = (created.body as { id: number }).id;
    const before = await snapshot(t.dataSource);
    const reader = { Authorization: `Bearer ${CLIENTS.readers.token}` };
    const put = await t.http
      .put(`/api/covid/data/${id}`)
      .set(reader)
      .send({ ...record('2019-06-01'), total_cases: 99 });
    const removed = await t.http.delete(`/api/covid/data/${id}`).set(reader);
    expect([put.status, removed.status]).toEqual([403, 403]);
    expect(await snapshot(t.dataSource)).toBe(before);
  });

  it('answers 401, not 403, to a missing or unknown token on a scoped route', async () => {
    const none = await t.http.post('/api/covid/data').send(record('2019-01-01'));
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: 'Accès refusé. Aucun jeton fourni.' });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const unknown = await t.http
      .delete('/api/mpox/data/1')
      .set('Authorization', 'Bearer tok-unknown-0123456789');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'Jeton invalide.' });
    expect(unknown.headers['www-authenticate']).toBe('Bearer');
  });

  it('checks the scope on answers kept by the response cache too', async () => {
    const reader = { Authorization: `Bearer ${CLIENTS['only-covid-read'].token}` };
    // The first answer is kept; the same URL is then answered before Nest's router.
    expect((await t.http.get('/api/covid/data?limit=3').set(reader)).status).toBe(200);
    expect((await t.http.get('/api/covid/data?limit=3').set(reader)).status).toBe(200);
    const writer = { Authorization: `Bearer ${CLIENTS['only-covid-write'].token}` };
    const refused = await t.http.get('/api/covid/data?limit=3').set(writer);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN);
  });

  it('serves the public routes to every token, whatever its scopes', async () => {
    for (const { token } of Object.values(CLIENTS)) {
      const res = await t.http
        .get('/api/covid/public/latest')
        .set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
    }
  });
});

describe('scopes: rate limit and logs', () => {
  it('counts a refused operation against the budget and logs it with the client name', async () => {
    const raw: string[] = [];
    const t = await bootTestApp(
      {
        API_TOKENS: `reader:${TOKENS.reader}:scopes=covid:read+mpox:read`,
        THROTTLE_LIMIT: '3',
        LOG_LEVEL: 'info',
      },
      { logDestination: { write: (line: string) => raw.push(line) } },
    );
    try {
      const reader = { Authorization: `Bearer ${TOKENS.reader}` };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await t.http.delete('/api/covid/data/1').set(reader)).status);
      }
      const limited = await t.http.get('/api/covid/data').set(reader);
      statuses.push(limited.status);
      expect(statuses).toEqual([403, 403, 403, 429]);
      expect(limited.body).toEqual({ error: 'Trop de requêtes. Réessayez plus tard.' });

      const lines = raw
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const refused = lines.filter((line) => line.status === 403);
      expect(refused).toHaveLength(3);
      for (const line of refused) {
        expect(line).toMatchObject({
          level: 'warn',
          method: 'DELETE',
          path: '/api/covid/data/1',
          client: 'reader',
        });
      }
      expect(raw.join('')).not.toContain(TOKENS.reader);
    } finally {
      await t.close();
    }
  });

  it('hands the name of the client behind each write to the code that performs it', async () => {
    const raw: string[] = [];
    const t = await bootTestApp(
      { LOG_LEVEL: 'debug' },
      { logDestination: { write: (line: string) => raw.push(line) } },
    );
    try {
      const created = await t.http
        .post('/api/mpox/data')
        .set(t.auth('bob'))
        .set('X-Request-Id', 'write-by-bob')
        .send(record('2022-05-01'));
      expect(created.status).toBe(201);
      const { id } = created.body as { id: number };
      const removed = await t.http
        .delete(`/api/mpox/data/${id}`)
        .set(t.auth('alice'))
        .set('X-Request-Id', 'delete-by-alice');
      expect(removed.status).toBe(200);
      const messages = raw
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { context?: string; msg: string })
        .filter((line) => line.context === 'Records:mpox')
        .map((line) => line.msg);
      expect(messages).toEqual([
        `Record ${id} created by bob (request write-by-bob)`,
        `Record ${id} deleted by alice (request delete-by-alice)`,
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('scopes: a route that declares none', () => {
  @Controller('forgotten')
  class ForgottenController {
    @Get()
    open(): string {
      return 'nobody decided who may call this';
    }

    @Get('fine')
    @RequireScope('covid:read')
    fine(): string {
      return 'declared';
    }
  }

  @Public()
  @Controller('open')
  class OpenController {
    @Get()
    open(): string {
      return 'public on purpose';
    }
  }

  @Module({
    imports: [DiscoveryModule],
    controllers: [ForgottenController, OpenController],
    providers: [ScopeDeclarationCheck],
  })
  class ForgottenModule {}

  @Module({
    imports: [DiscoveryModule],
    controllers: [OpenController],
    providers: [ScopeDeclarationCheck],
  })
  class DeclaredModule {}

  it('keeps the application from starting, naming the route', async () => {
    const forgotten = await Test.createTestingModule({ imports: [ForgottenModule] }).compile();
    await expect(forgotten.init()).rejects.toThrow(
      'Routes without @Public() or @RequireScope(): ForgottenController.open. Declare who may ' +
        'call each one.',
    );
    const declared = await Test.createTestingModule({ imports: [DeclaredModule] }).compile();
    await expect(declared.init()).resolves.toBe(declared);
    await declared.close();
  });
});
