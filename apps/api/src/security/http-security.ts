import { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { isDashboardPath } from '../dashboard/dashboard-paths';
import { DOCS_PATH } from '../docs/api-docs';
import { REQUEST_ID_HEADER } from '../logging/request-id';

/**
 * Headers of the API's JSON answers: the four OWASP's REST Security Cheat Sheet lists for every API
 * response (CSP, X-Frame-Options, nosniff, HSTS; its `Cache-Control: no-store` is for sensitive
 * data, and these figures are public), plus CORP and Referrer-Policy. A JSON answer is never
 * rendered as a page, so it may load nothing and never be framed; helmet's other headers
 * (X-XSS-Protection, X-Download-Options, X-DNS-Prefetch-Control, Origin-Agent-Cluster,
 * X-Permitted-Cross-Domain-Policies, Cross-Origin-Opener-Policy) only concern HTML documents.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/**
 * Headers of the documentation (`/api/docs`: Swagger UI's page, scripts and styles): helmet's whole
 * set, with a content security policy that lets the Swagger UI run (its own scripts and styles
 * only; inline styles and data: images). With this configuration helmet's headers do not depend on
 * the request, so helmet's middleware is run once against a recording response.
 */
export function docsSecurityHeaders(): Readonly<Record<string, string>> {
  return helmetHeaders({ styleSrc: ["'self'", "'unsafe-inline'"] });
}

/**
 * Headers of the dashboard (`/`, `/dashboard` and its assets): helmet's set with a stricter policy
 * than the documentation's: the pages' own scripts and styles only, no inline style either.
 */
export function dashboardSecurityHeaders(): Readonly<Record<string, string>> {
  // Without upgrade-insecure-requests: served over plain HTTP (a LAN, a test host), the browser
  // would otherwise ask HTTPS for the page's own assets and get nothing.
  return helmetHeaders({
    styleSrc: ["'self'"],
    fontSrc: ["'self'"],
    upgradeInsecureRequests: null,
  });
}

function helmetHeaders(
  directives: Record<string, string[] | null> & { styleSrc: string[] },
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        ...directives,
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    xFrameOptions: { action: 'deny' },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined) throw new Error('helmet refused its configuration', { cause: error });
  });
  return Object.freeze(headers);
}

/**
 * Security headers on every response (errors and 404s included), set on Fastify's reply so that
 * they reach Node in one `writeHead`: helmet's recorded headers are replayed rather than helmet
 * run on each response, and @fastify/helmet, which rebuilds helmet on every request, is not used
 * (bench/HISTORY.md, changes 8 and 9, also for the six API headers instead of helmet's twelve).
 */
export function registerSecurityHeaders(app: NestFastifyApplication): void {
  const docs = docsSecurityHeaders();
  const dashboard = dashboardSecurityHeaders();
  const page = `/${DOCS_PATH}`;
  // The page and its assets (`/api/docs/...`); the documents `/api/docs-json` and `-yaml` are data.
  const isDocsPage = (url: string) =>
    url.startsWith(page) && (url.length === page.length || '/?'.includes(url[page.length]));
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      const url = request.url;
      if (isDocsPage(url)) void reply.headers(docs);
      else if (isDashboardPath(url)) void reply.headers(dashboard);
      else void reply.headers(API_SECURITY_HEADERS);
      done();
    });
}

/**
 * CORS from `CORS_ORIGINS`: empty = off (no CORS headers: browsers on other origins are refused),
 * `*` = any origin, otherwise the listed origins only. Tokens travel in `Authorization`, never in
 * cookies, so credentials are not enabled.
 */
export function enableCors(app: NestFastifyApplication, config: AppConfig): void {
  if (config.corsOrigins.length === 0) return;
  app.enableCors({
    origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    // If-None-Match: a browser app revalidates what it keeps itself (a 304 then).
    allowedHeaders: ['Authorization', 'Content-Type', REQUEST_ID_HEADER, 'If-None-Match'],
    // Browser clients may read what paces them (the rate limit), what names a request, the tag
    // to revalidate with, and a list page's next page and a CSV download's file name.
    exposedHeaders: [
      REQUEST_ID_HEADER,
      'Retry-After',
      'WWW-Authenticate',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'ETag',
      'Link',
      'Content-Disposition',
    ],
    maxAge: 600,
  });
}
