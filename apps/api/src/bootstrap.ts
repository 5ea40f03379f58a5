import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DestinationStream } from 'pino';
import { AppConfig } from '@app/config';
import { API_PREFIX } from './api-prefix';
import { AppModule, GLOBAL_GUARDS } from './app.module';
import { clientErrorHandler, frameworkErrors, requireHostHeader } from './framework-errors';
import { serveDashboard } from './dashboard/serve-dashboard';
import { setupApiDocs } from './docs/api-docs';
import { registerCompression } from './compression/response-compression';
import { closeConnectionsWhenStopping } from './health/connection-close.hook';
import { PinoNestLogger, createAppLogger } from './logging/app-logger';
import { logRequests } from './logging/request-log';
import { echoRequestId, requestId } from './logging/request-id';
import { countRequests } from './metrics/request-metrics.hook';
import { serveCachedResponses } from './response-cache/serve-cached-responses';
import { enableCors, registerSecurityHeaders } from './security/http-security';
import { drainUnreadBodies } from './security/unread-body-drain.hook';
import { SHUTDOWN_SIGNALS } from './shutdown-deadline';
import { CLIENT_TIMEOUTS } from './client-timeouts';

export { API_PREFIX };

export interface CreateAppOptions {
  /** Where the JSON log lines go (default: standard output). Tests capture them here. */
  logDestination?: DestinationStream;
}

/** Builds the whole HTTP application (used by `main.ts` and by the end-to-end tests alike). */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // On close: refuse new connections, close idle keep-alive ones, finish requests in flight.
    forceCloseConnections: 'idle',
    // Requests that still reach us while closing (keep-alive) are served, with `Connection: close`.
    return503OnClosing: false,
    genReqId: requestId,
    requestTimeout: CLIENT_TIMEOUTS.requestMs,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors,
    clientErrorHandler,
    // A request without Host gets the API's JSON 400 (requireHostHeader below), not Node's empty one.
    http: { requireHostHeader: false },
    // No Nest middleware (Fastify hooks, guards and pipes do that work), so no @fastify/middie hook
    // on every request. A Nest middleware would need this option removed.
    skipMiddie: true,
  });
  const logger = createAppLogger(config.logLevel, options.logDestination);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    adapter,
    {
      // pino from the first line: the start-up, and its failure (database unreachable: TypeORM's
      // retries, then Nest's exit 1), log JSON lines filtered by LOG_LEVEL, without stack traces.
      logger: new PinoNestLogger(logger),
      // Fastify's own JSON parser only: other content types (forms) answer 415.
      bodyParser: false,
    },
  );
  app.getHttpServer().headersTimeout = CLIENT_TIMEOUTS.headersMs;
  // First: its hooks go on the routes declared after it, i.e. on every route.
  await registerCompression(app);
  // JSON bodies only: text/plain answers 415 like every other media type.
  app.getHttpAdapter().getInstance().removeContentTypeParser('text/plain');
  app.setGlobalPrefix(API_PREFIX);
  echoRequestId(app);
  logRequests(app);
  countRequests(app);
  closeConnectionsWhenStopping(app);
  drainUnreadBodies(app, config.bodyLimitBytes);
  registerSecurityHeaders(app);
  requireHostHeader(app);
  enableCors(app, config);
  serveCachedResponses(app, GLOBAL_GUARDS);
  setupApiDocs(app);
  serveDashboard(app);
  // SIGTERM/SIGINT: stop accepting, finish requests in flight, close the pools, exit 0.
  app.enableShutdownHooks([...SHUTDOWN_SIGNALS], { useProcessExit: true });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
