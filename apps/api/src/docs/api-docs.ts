import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

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
        'Each client has a rate limit (429 with `Retry-After`).',
        "Every response carries `X-Request-Id` (the caller's own when it sends a sane one): quote it",
        'when reporting a problem.',
      ].join('\n'),
    )
    .setVersion('1.0')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque token',
      description: 'A client token (`Authorization: Bearer <token>`)',
    })
    .build();
  return SwaggerModule.createDocument(app, config);
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
