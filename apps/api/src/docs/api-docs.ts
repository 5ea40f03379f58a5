import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  HeaderObject,
  ReferenceObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

export const DOCS_PATH = 'api/docs';
export const DOCS_JSON_PATH = 'api/docs-json';

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
};

/** Routes the rate limit does not count. */
const UNLIMITED_PATHS = new Set(['/api/health']);

/**
 * Answers that never carry the `X-RateLimit-*` headers: a body refused before the guards run
 * (413, 415) and the rate limit's own refusal. A 400 may or may not (malformed JSON is refused
 * before the guards, an invalid parameter after): the headers are declared, and described.
 */
const UNCOUNTED_STATUSES = new Set(['413', '415', '429']);

/**
 * What the decorators cannot say: the response headers every answer carries, `security: []` on
 * the public operations (no token, as opposed to "not stated"), and that a record body refuses
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
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || '$ref' in response) continue;
        const counted = !UNLIMITED_PATHS.has(path) && !UNCOUNTED_STATUSES.has(status);
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
