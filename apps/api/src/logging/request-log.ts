import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { TokenService } from '../auth/token.service';
import { APP_LOGGER } from './logging.module';

const HEALTH_PATH = '/api/health';

/** The level of a request's line; the path is only looked at for successes (health polls). */
function levelOf(request: FastifyRequest, status: number): 'error' | 'warn' | 'info' | 'debug' {
  if (status >= 500) return 'error';
  if (status >= 400) return 'warn';
  // The orchestrator polls health every few seconds: keep those lines out of `info`.
  return pathOf(request) === HEALTH_PATH ? 'debug' : 'info';
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

/**
 * One JSON line per request, written when the response is sent: `requestId`, `method`, `path`
 * (no query string), `status`, `durationMs` and `client` (the token's client name, never the
 * token). Request headers are never logged. A Fastify hook, not an HTTP middleware: measured,
 * a pino-http middleware with a child logger per request cost 60 % of the throughput.
 */
export function logRequests(app: NestFastifyApplication): void {
  const logger = app.get<Logger>(APP_LOGGER);
  const tokens = app.get(TokenService);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const level = levelOf(request, reply.statusCode);
      if (logger.isLevelEnabled(level)) {
        const caller = tokens.identify(request);
        logger[level](
          {
            requestId: request.id,
            method: request.method,
            path: pathOf(request),
            status: reply.statusCode,
            durationMs: Math.round(reply.elapsedTime),
            client: caller.kind === 'client' ? caller.client : null,
          },
          'request completed',
        );
      }
      done();
    });
}
