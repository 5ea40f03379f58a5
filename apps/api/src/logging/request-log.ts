import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { TokenService } from '../auth/token.service';
import { ResponseCache } from '../response-cache/response-cache';
import { APP_LOGGER } from './logging.module';

import { HEALTH_PATH } from '../api-prefix';

/** The level of a request's line; `path` is only needed for successes (health polls). */
function levelOf(status: number, path: string | undefined): 'error' | 'warn' | 'info' | 'debug' {
  if (status >= 500) return 'error';
  if (status >= 400) return 'warn';
  // The orchestrator polls health every few seconds: keep those lines out of `info`.
  return path === HEALTH_PATH ? 'debug' : 'info';
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

/**
 * One JSON line per request, written when the response is sent: `requestId`, `method`, `path`
 * (no query string), `status`, `durationMs`, `client` (the token's client name, never the
 * token) and, on answers served from the response cache, `cache: "hit"`. Request headers are
 * never logged. A Fastify hook, not an HTTP middleware: a pino-http middleware with a child
 * logger per request cost much of the throughput (bench/HISTORY.md, change 7).
 */
export function logRequests(app: NestFastifyApplication): void {
  const logger = app.get<Logger>(APP_LOGGER);
  const tokens = app.get(TokenService);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const status = reply.statusCode;
      // A success is logged at info or debug (below info): nothing to do when info is off.
      if (status < 400 && !logger.isLevelEnabled('info')) {
        done();
        return;
      }
      // Worked out at most once: for a success always (its level depends on it), for an error only
      // when its line is written.
      const path = status < 400 ? pathOf(request) : undefined;
      const level = levelOf(status, path);
      if (logger.isLevelEnabled(level)) {
        const caller = tokens.identify(request);
        logger[level](
          {
            requestId: request.id,
            method: request.method,
            path: path ?? pathOf(request),
            status,
            durationMs: Math.round(reply.elapsedTime),
            client: caller.kind === 'client' ? caller.client : null,
            // Only on answers served from the response cache, before Nest's router.
            ...(ResponseCache.wasServed(request) && { cache: 'hit' }),
          },
          'request completed',
        );
      }
      done();
    });
}
