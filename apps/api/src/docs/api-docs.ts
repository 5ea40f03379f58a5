import { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { MESSAGES } from '@app/common';
import { API_PREFIX, HEALTH_PATH, METRICS_PATH } from '../api-prefix';
import { COMPRESSION_THRESHOLD_BYTES } from '../compression/response-compression';

export const DOCS_PATH = `${API_PREFIX}/docs`;
export const DOCS_JSON_PATH = `${API_PREFIX}/docs-json`;

/** The OpenAPI document of every route, built from the controllers' and DTOs' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('COVID-19 and MPOX data API')
    .setDescription(
      [
        'COVID-19 and MPOX figures per country and date.',
        '',
        'Public routes need no token. Every other route needs `Authorization: Bearer <token>`',
        '(401 `{ "error": "..." }` with `WWW-Authenticate: Bearer` otherwise).',
        'Every error body is `{ "error": "...", "details"?: ["..."] }`; messages are in French.',
        'Each client has a rate limit (429 with `Retry-After`); answers counted by it, errors',
        'included, carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`.',
        "Every response carries `X-Request-Id` (the caller's own when it sends a sane one): quote it",
        'when reporting a problem.',
        'A request body is read and checked before the token: whatever the route and the token, a',
        'body that is not JSON answers 415, a body larger than the limit 413, malformed JSON 400.',
        '',
        'Routes that answer 304 are cacheable: their 200 carries a strong `ETag` and `Cache-Control`',
        '(public routes: `public, max-age, stale-while-revalidate`; token routes: `private, no-cache`',
        'with `Vary: Authorization`). Send the `ETag` back in `If-None-Match`: while the answer is the',
        'same, it is a 304 without a body. A 304 is counted by the rate limit like any other answer.',
        '',
        `Answers of ${THRESHOLD_KIB} KiB or more, streamed lists included, are compressed when`,
        '`Accept-Encoding` asks for `br` or `gzip` (`Content-Encoding` says which; `Vary` then names',
        '`accept-encoding`); the compressed variant carries the weak form of the tag, `W/"…"`,',
        'which `If-None-Match` accepts as well.',
      ].join('\n'),
    )
    .setVersion('1.0')
    .addServer('/', 'This server')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque token',
      description: 'A client token (`Authorization: Bearer <token>`)',
    })
    .build();
  return completeDocument(SwaggerModule.createDocument(app, config));
}

const THRESHOLD_KIB = COMPRESSION_THRESHOLD_BYTES / 1024;

const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description:
      "The caller's own `X-Request-Id` when sane (1-128 of `A-Za-z0-9._:@+=/-`), else a new UUID",
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description:
      'Requests allowed per window (`THROTTLE_LIMIT`). The three `X-RateLimit-*` headers are on ' +
      'every answer the rate limit counted, errors included; not on what is refused before it ' +
      '(a body that is malformed, too large or not JSON; an unknown route), nor on the 429.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window ends',
    schema: { type: 'integer' },
  },
  ETag: {
    description:
      'Strong entity tag of the answer (a digest of its body): send it back in `If-None-Match`. ' +
      'It changes as soon as a write changes the answer, on every instance. A compressed ' +
      'answer carries its weak form (`W/"…"`): the same tag, other bytes.',
    schema: { type: 'string' },
  },
  'Cache-Control-public': {
    description:
      '`public, max-age=<HTTP_CACHE_MAX_AGE>, stale-while-revalidate=<HTTP_CACHE_SWR>` ' +
      '(defaults 10 and 30 seconds): browsers and CDNs may keep the answer. An answer `as_of` ' +
      'an instant more than a minute old no longer changes: `public, max-age=86400, immutable`',
    schema: { type: 'string', example: 'public, max-age=10, stale-while-revalidate=30' },
  },
  'Cache-Control-private': {
    description:
      '`private, no-cache`: only the caller may keep the answer, and revalidates it each time',
    schema: { type: 'string', example: 'private, no-cache' },
  },
  'Vary-private': {
    description:
      '`Authorization` (and `Origin` when CORS is on): the answer depends on the token; on lists ' +
      '`Authorization, Accept`, whose format `Accept` may choose; and `accept-encoding` on ' +
      `answers of ${THRESHOLD_KIB} KiB or more, which may be compressed`,
    schema: { type: 'string', example: 'Authorization, Accept' },
  },
  'Vary-list': {
    description:
      '`Accept` (and `Origin` when CORS is on): the format of the list may come from it; and ' +
      `\`accept-encoding\` on answers of ${THRESHOLD_KIB} KiB or more, which may be compressed`,
    schema: { type: 'string', example: 'Accept' },
  },
  Link: {
    description:
      'On a page that others follow: `<same path and filters&after=<cursor>>; rel="next"` ' +
      '(RFC 8288); absent on the last page',
    schema: {
      type: 'string',
      example: '</api/covid/data?country=France&limit=10&after=MjAyMS0wMy0wMSwxMjM0>; rel="next"',
    },
  },
  'Content-Disposition': {
    description: 'CSV only: `attachment; filename="<disease>-<today, UTC>.csv"`',
    schema: { type: 'string', example: 'attachment; filename="covid-2026-11-26.csv"' },
  },
};

/** The other bodies of a list route (a `format` parameter): CSV and NDJSON text. */
const LIST_CONTENT = {
  'text/csv': {
    schema: { type: 'string' },
    example:
      'id,date,country,total_cases,new_cases,total_deaths,new_deaths\r\n' +
      '1234,2021-03-01,"Korea, South",91240,355,1619,4\r\n',
  },
  'application/x-ndjson': {
    schema: { type: 'string' },
    example:
      '{"id":1234,"date":"2021-03-01","country":"Korea, South","total_cases":91240,' +
      '"new_cases":355,"total_deaths":1619,"new_deaths":4}\n',
  },
};

/**
 * A list route's other formats and headers: CSV and NDJSON bodies beside JSON, `Vary: Accept`
 * (public routes; token routes' `Vary-private` says it), and on a paged list (`after`) `Link` and
 * the CSV download's `Content-Disposition`.
 */
function completeListOperation(operation: OperationObject): void {
  const parameters = (operation.parameters ?? []).filter(
    (p): p is ParameterObject => !('$ref' in p) && p.in === 'query',
  );
  if (!parameters.some((p) => p.name === 'format')) return;
  const ref = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
  const ok = operation.responses['200'] as ResponseObject | undefined;
  if (!ok || '$ref' in ok) return;
  ok.content = { ...ok.content, ...LIST_CONTENT };
  const isPublic = (operation.security ?? []).length === 0;
  const extra: Record<string, ReferenceObject> = {
    ...(isPublic && { Vary: ref('Vary-list') }),
    ...(parameters.some((p) => p.name === 'after') && {
      Link: ref('Link'),
      'Content-Disposition': ref('Content-Disposition'),
    }),
  };
  ok.headers = { ...ok.headers, ...extra };
  const notModified = operation.responses['304'] as ResponseObject | undefined;
  if (isPublic && notModified && !('$ref' in notModified)) {
    notModified.headers = { ...notModified.headers, Vary: ref('Vary-list') };
  }
}

/** What every route answers to a query parameter it does not read (decision 0049). */
const UNKNOWN_PARAMETER = 'a query parameter the route does not read (`_`, a cache buster, aside)';

/** The 400 of an unknown query parameter, on every operation: added, or named beside the others. */
function declareUnknownParameters(operation: OperationObject): void {
  const refused = operation.responses['400'] as ResponseObject | undefined;
  if (refused && '$ref' in refused) return;
  if (refused) {
    refused.description = `${refused.description}; or ${UNKNOWN_PARAMETER}`;
    return;
  }
  operation.responses['400'] = {
    description: `Unknown query parameter: ${UNKNOWN_PARAMETER}`,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponse' },
        example: { error: MESSAGES.invalidQuery, details: ['contry : paramètre inconnu'] },
      },
    },
  };
}

/** Routes the rate limit does not count. */
const UNLIMITED_PATHS = new Set([HEALTH_PATH]);

/**
 * Routes whose callers with the exempt scope are not counted (`@SkipThrottleFor()`): only the
 * refusals of the others carry the headers.
 */
const COUNTED_ONLY: Record<string, Set<string>> = { [METRICS_PATH]: new Set(['401', '403']) };

/**
 * Answers that never carry the `X-RateLimit-*` headers: a body refused before the guards run
 * (413, 415) and the rate limit's own refusal. A 400 may or may not (malformed JSON is refused
 * before the guards, an invalid parameter after): the headers are declared, and described.
 */
const UNCOUNTED_STATUSES = new Set(['413', '415', '429']);

/**
 * What the decorators cannot say: the response headers every answer carries, the caching headers
 * of a cacheable route's 200 (those its 304 declares, see `@HttpCache()`), `security: []` on the
 * public operations (no token, as opposed to "not stated"), and that a record body refuses
 * unknown fields.
 */
function completeDocument(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, headers: HEADERS };
  const ref = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const operation = item[method];
      if (!operation) continue;
      operation.security ??= [];
      completeListOperation(operation);
      declareUnknownParameters(operation);
      const notModified = operation.responses['304'];
      const ok = operation.responses['200'];
      if (notModified && !('$ref' in notModified) && ok && !('$ref' in ok)) {
        ok.headers = { ...ok.headers, ...notModified.headers };
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || '$ref' in response) continue;
        const counted =
          COUNTED_ONLY[path]?.has(status) ??
          (!UNLIMITED_PATHS.has(path) && !UNCOUNTED_STATUSES.has(status));
        response.headers = {
          ...response.headers,
          'X-Request-Id': ref('X-Request-Id'),
          ...(counted && {
            'X-RateLimit-Limit': ref('X-RateLimit-Limit'),
            'X-RateLimit-Remaining': ref('X-RateLimit-Remaining'),
            'X-RateLimit-Reset': ref('X-RateLimit-Reset'),
          }),
        };
      }
    }
  }
  const body = document.components.schemas?.RecordBodyDto;
  if (body && !('$ref' in body)) body.additionalProperties = false;
  return document;
}

/** Swagger UI at `/api/docs`, the JSON document at `/api/docs-json` (public, not rate-limited). */
export function setupApiDocs(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: DOCS_JSON_PATH,
    yamlDocumentUrl: 'api/docs-yaml',
    customSiteTitle: 'COVID-19 and MPOX data API',
    swaggerOptions: { persistAuthorization: true, validatorUrl: null },
  });
}
