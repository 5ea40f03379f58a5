import { createConfig, lintFromString } from '@redocly/openapi-core';
import { MESSAGES } from '@app/common';
import { MAX_BULK_RECORDS } from '@app/diseases';
import { AppRoute, appRoutes } from '../../support/app-routes';
import { TestApp, bootTestApp } from '../../support/test-app';

interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<
    string,
    { schema?: { $ref?: string }; example?: unknown; examples?: Record<string, unknown> }
  >;
}
interface Operation {
  summary?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  requestBody?: { content: Record<string, { schema?: { $ref?: string } }> };
  responses: Record<string, Response>;
  security?: Array<Record<string, string[]>>;
  'x-required-scopes'?: string[];
}
interface OpenApi {
  openapi: string;
  info: { title: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, Schema>;
    headers: Record<string, unknown>;
  };
}
interface Schema {
  type?: string;
  $ref?: string;
  oneOf?: unknown[];
  allOf?: unknown[];
  items?: Schema;
  nullable?: boolean;
  maximum?: number;
  format?: string;
  example?: unknown;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean;
}

describe('OpenAPI document (/api/docs-json)', () => {
  let t: TestApp;
  let doc: OpenApi;
  let routes: AppRoute[];

  beforeAll(async () => {
    t = await bootTestApp({ THROTTLE_LIMIT: '1' });
    const res = await t.http.get('/api/docs-json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body as OpenApi;
    routes = appRoutes(t.app);
  });
  afterAll(() => t.close());

  const operation = (route: AppRoute) => doc.paths[route.path]?.[route.method];

  it('is OpenAPI 3 with the bearer scheme', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('COVID-19 and MPOX data API');
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
  });

  it("passes Redocly's recommended lint rules with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer})`);
    expect(errors).toEqual([]);
  });

  it('documents every route of the application, and nothing else', () => {
    expect(routes.length).toBeGreaterThanOrEqual(18);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      routes.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort(),
    );
  });

  it('gives each operation a summary and a described success response', () => {
    for (const route of routes) {
      const op = operation(route);
      expect({ route, summary: op.summary }).toEqual({ route, summary: expect.any(String) });
      const success = Object.keys(op.responses).filter((status) => /^2/.test(status));
      expect({ route, success }).toEqual({ route, success: [expect.any(String)] });
      for (const [status, response] of Object.entries(op.responses)) {
        expect({ route, status, description: response.description }).toEqual({
          route,
          status,
          description: expect.stringMatching(/\S/),
        });
      }
    }
  });

  it('puts the bearer scheme and 401 exactly on the routes that need a token', () => {
    for (const route of routes) {
      const op = operation(route);
      if (route.isPublic) {
        expect({ route, security: op.security, has401: '401' in op.responses }).toEqual({
          route,
          security: [],
          has401: false,
        });
      } else {
        expect({ route, security: op.security }).toEqual({ route, security: [{ bearer: [] }] });
        const unauthorized = op.responses['401'];
        expect(unauthorized.headers).toHaveProperty('WWW-Authenticate');
        expect(unauthorized.content?.['application/json'].examples).toEqual({
          noToken: expect.objectContaining({ value: { error: MESSAGES.noToken } }),
          invalidToken: expect.objectContaining({ value: { error: MESSAGES.invalidToken } }),
        });
      }
    }
  });

  it('names the scopes each token operation needs, with its 403', () => {
    for (const route of routes) {
      const op = operation(route);
      if (route.isPublic) {
        expect({ route, scopes: op['x-required-scopes'], has403: '403' in op.responses }).toEqual({
          route,
          scopes: undefined,
          has403: false,
        });
        continue;
      }
      expect(route.scopes).toEqual(expect.arrayContaining([expect.stringMatching(/:/)]));
      expect({ route, scopes: op['x-required-scopes'] }).toEqual({ route, scopes: route.scopes });
      const forbidden = op.responses['403'];
      expect({ route, description: forbidden.description }).toEqual({
        route,
        description: `The token lacks the scope ${route.scopes!.map((s) => `\`${s}\``).join(' and ')}`,
      });
      expect(forbidden.content?.['application/json'].example).toEqual({
        error: MESSAGES.insufficientScope,
      });
      expect(forbidden.headers).toHaveProperty('WWW-Authenticate');
    }
    expect(operation({ method: 'delete', path: '/api/mpox/data/{id}', isPublic: false })).toEqual(
      expect.objectContaining({ 'x-required-scopes': ['mpox:write'] }),
    );
  });

  it('documents every error status with the error body and an example', () => {
    for (const route of routes) {
      const op = operation(route);
      // Metrics never reads the database.
      const expected =
        route.path === '/api/health'
          ? ['503']
          : route.path === '/api/metrics'
            ? ['401', '403', '429', '500']
            : ['429', '500', '503'];
      expect({ route, statuses: Object.keys(op.responses) }).toEqual({
        route,
        statuses: expect.arrayContaining(expected),
      });
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || route.path === '/api/health') continue;
        const content = response.content?.['application/json'];
        expect({ route, status, schema: content?.schema }).toEqual({
          route,
          status,
          schema: { $ref: '#/components/schemas/ErrorResponse' },
        });
        expect({ route, status, example: content?.example ?? content?.examples }).toEqual({
          route,
          status,
          example: expect.anything(),
        });
      }
    }
    const limited = operation({ method: 'get', path: '/api/covid/public/latest', isPublic: true });
    expect(limited.responses['429'].headers).toHaveProperty('Retry-After');
  });

  it('documents bodies, their errors, and every path and query parameter', () => {
    for (const route of routes) {
      const op = operation(route);
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const documentedPathParams = (op.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect({ route, params: documentedPathParams }).toEqual({ route, params: pathParams });
      if (route.method === 'post' || route.method === 'put') {
        const record = { $ref: '#/components/schemas/RecordBodyDto' };
        expect(op.requestBody?.content['application/json'].schema).toEqual(
          route.path.endsWith('/bulk')
            ? { type: 'array', items: record, maxItems: MAX_BULK_RECORDS }
            : record,
        );
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '413', '415']));
      } else {
        expect({ route, body: op.requestBody }).toEqual({ route, body: undefined });
      }
    }
    const list = operation({ method: 'get', path: '/api/covid/data', isPublic: false });
    expect(list.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual([
      'as_of',
      'country',
      'from',
      'to',
      'limit',
      'offset',
      'after',
      'format',
    ]);
    const window = operation({
      method: 'get',
      path: '/api/covid/public/country/{country}',
      isPublic: true,
    });
    expect(window.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual([
      'as_of',
      'format',
    ]);
    const stats = operation({ method: 'get', path: '/api/mpox/stats', isPublic: false });
    expect(stats.parameters).toEqual([
      expect.objectContaining({ name: 'country', in: 'query', required: true }),
      expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
    ]);
  });

  it('describes HTTP caching: ETag and Cache-Control on 200, the 304, If-None-Match', () => {
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    const cached = [
      ['/api/covid/public/latest', 'public'],
      ['/api/covid/public/country/{country}', 'public'],
      ['/api/covid/public/totals', 'public'],
      ['/api/mpox/public/summary', 'public'],
      ...['covid', 'mpox'].flatMap((key) =>
        [
          'weekly',
          'country/{country}/weekly',
          'country/{country}/corrections',
          'map',
          'countries',
        ].map((route) => [`/api/${key}/public/${route}`, 'public']),
      ),
      ['/api/covid/data', 'private'],
      ['/api/mpox/data', 'private'],
      ['/api/covid/countries', 'private'],
      ['/api/mpox/countries', 'private'],
      ['/api/covid/stats', 'private'],
      ['/api/mpox/stats', 'private'],
      ['/api/stats/summary', 'private'],
      ['/api/covid/data/{id}', 'private'],
      ['/api/mpox/data/{id}', 'private'],
      ['/api/covid/data/{id}/history', 'private'],
      ['/api/mpox/data/{id}/history', 'private'],
      ['/api/covid/changes', 'private'],
      ['/api/mpox/changes', 'private'],
      ['/api/covid/series', 'private'],
      ['/api/mpox/series', 'private'],
      ['/api/covid/corrections', 'private'],
      ['/api/mpox/corrections', 'private'],
      ['/api/covid/vintages', 'private'],
      ['/api/mpox/vintages', 'private'],
      ['/api/population', 'public'],
      ['/api/regions', 'public'],
    ];
    for (const [path, scope] of cached) {
      const op = doc.paths[path].get;
      const caching = {
        ETag: header('ETag'),
        'Cache-Control': header(`Cache-Control-${scope}`),
        ...(scope === 'private' && { Vary: header('Vary-private') }),
      };
      expect({ path, ok: op.responses['200'].headers }).toEqual({
        path,
        ok: expect.objectContaining(caching),
      });
      expect({ path, notModified: op.responses['304'] }).toEqual({
        path,
        notModified: {
          description: expect.stringContaining('rate limit'),
          headers: expect.objectContaining(caching),
        },
      });
      expect(op.parameters?.filter((p) => p.in === 'header')).toEqual([
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: expect.any(String),
          schema: { type: 'string' },
        },
      ]);
    }
    const cachedPaths = new Set(cached.map(([path]) => path));
    for (const route of routes) {
      if (route.method === 'get' && cachedPaths.has(route.path)) continue;
      const op = operation(route);
      expect({ route, has304: '304' in op.responses }).toEqual({ route, has304: false });
      expect({ route, etag: op.responses['200']?.headers?.ETag }).toEqual({
        route,
        etag: undefined,
      });
    }
    expect(doc.components.headers['Cache-Control-public']).toMatchObject({
      description: expect.stringContaining('HTTP_CACHE_MAX_AGE'),
    });
  });

  it('describes the list formats: format, CSV and NDJSON bodies, Vary, Link on /data', () => {
    const lists = [
      ['/api/covid/public/latest', true],
      ['/api/covid/public/country/{country}', true],
      ['/api/covid/public/countries', true],
      ['/api/mpox/public/countries', true],
      ['/api/covid/countries', false],
      ['/api/mpox/countries', false],
      ['/api/covid/data', false],
      ['/api/mpox/data', false],
      ['/api/covid/changes', false],
      ['/api/mpox/changes', false],
    ] as const;
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const [path, isPublic] of lists) {
      const op = doc.paths[path].get;
      expect({ path, format: op.parameters?.find((p) => p.name === 'format') }).toEqual({
        path,
        format: expect.objectContaining({
          in: 'query',
          required: false,
          schema: expect.objectContaining({ enum: ['json', 'csv', 'ndjson'] }),
        }),
      });
      const ok = op.responses['200'];
      expect({ path, types: Object.keys(ok.content ?? {}).sort() }).toEqual({
        path,
        types: ['application/json', 'application/x-ndjson', 'text/csv'],
      });
      const vary = header(isPublic ? 'Vary-list' : 'Vary-private');
      expect({
        path,
        vary: ok.headers?.Vary,
        notModified: op.responses['304'].headers?.Vary,
      }).toEqual({ path, vary, notModified: vary });
      const paged = path.endsWith('/data') || path.endsWith('/changes');
      expect({ path, link: ok.headers?.Link }).toEqual({
        path,
        link: paged ? header('Link') : undefined,
      });
    }
    const totals = doc.paths['/api/covid/public/totals'].get;
    expect(totals.parameters?.some((p) => p.name === 'format')).toBe(false);
    expect(Object.keys(totals.responses['200'].content ?? {})).toEqual(['application/json']);
  });

  it('declares the response headers: X-Request-Id everywhere, X-RateLimit-* where the rate limit counted', () => {
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      'Cache-Control-private',
      'Cache-Control-public',
      'Content-Disposition',
      'ETag',
      'Link',
      'Vary-list',
      'Vary-private',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Request-Id',
    ]);
    for (const route of routes) {
      for (const [status, response] of Object.entries(operation(route).responses)) {
        // What test/fast/rate-limit/rate-limit.e2e-spec.ts finds on the wire: every answer the rate limit
        // counted, errors included; not a body refused before the guards, nor the 429.
        // The metrics route does not count a scraper (its 200 and 500): only the refusals.
        const counted =
          route.path === '/api/metrics'
            ? ['401', '403'].includes(status)
            : route.path !== '/api/health' && !['413', '415', '429'].includes(status);
        const rateHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
        const headers = Object.keys(response.headers ?? {});
        expect({ route, status, headers: headers.filter((h) => h.startsWith('X-R')) }).toEqual({
          route,
          status,
          headers: counted ? ['X-Request-Id', ...rateHeaders] : ['X-Request-Id'],
        });
      }
    }
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('gives every scalar a type a generated client can use', () => {
    // No property typed as an object without properties (TypeScript `number | null` and
    // `unknown` come out that way unless the decorator says otherwise).
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const [property, value] of Object.entries(schema.properties ?? {})) {
        const typed = value.$ref ?? value.oneOf ?? value.allOf ?? value.type;
        // An object is typed by its `allOf` (a nullable reference, as OpenAPI 3.0 writes one).
        const object = value.type === 'object' && value.allOf === undefined;
        expect({ name, property, typed, object }).toEqual({
          name,
          property,
          typed: expect.anything(),
          object: false,
        });
      }
    }
    const { schemas } = doc.components;
    expect(schemas.CountryStatsResponse.properties?.case_fatality_rate).toMatchObject({
      type: 'number',
      nullable: true,
    });
    expect(schemas.RecordBodyDto.additionalProperties).toBe(false);
    // OpenAPI 3.0: `nullable` only beside a `type` (Redocly's `struct` rule).
    expect(schemas.RecordBodyDto.properties?.total_recovered).toEqual({
      description: expect.any(String),
      oneOf: [{ type: 'number', nullable: true }, { type: 'string' }, { type: 'boolean' }],
    });
    expect(schemas.CreatedAck.properties?.message.example).toBe(MESSAGES.created);
    const list = operation({ method: 'get', path: '/api/covid/data', isPublic: false });
    for (const name of ['limit', 'offset']) {
      expect(list.parameters?.find((p) => p.name === name)?.schema).toMatchObject({
        type: 'integer',
        maximum: Number.MAX_SAFE_INTEGER,
      });
    }
  });

  it('is public and not rate-limited, like the UI', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await t.http.get('/api/docs-json')).status).toBe(200);
      const ui = await t.http.get('/api/docs');
      expect(ui.status).toBe(200);
      expect(ui.headers['content-type']).toMatch(/^text\/html/);
    }
  });
});
