import { IncomingMessage, ServerResponse } from 'node:http';
import { Level, stdTimeFunctions } from 'pino';
import { Options } from 'pino-http';
import { TokenService } from '../auth/token.service';

type LogRequest = IncomingMessage & { originalUrl?: string };

const HEALTH_PATH = '/api/health';

function pathOf(request: LogRequest): string {
  return (request.originalUrl ?? request.url ?? '').split('?')[0];
}

/**
 * pino-http options: one JSON line per request with `requestId`, `method`, `path` (no query
 * string), `status`, `durationMs` and `client` (the token's client name, never the token). The
 * request id is Fastify's (see request-id.ts).
 * Request headers are never logged; `Authorization` is redacted should anything log them.
 */
export function requestLogOptions(level: string, tokens: TokenService): Options {
  const entry = (request: LogRequest, response: ServerResponse, durationMs: number) => {
    const caller = tokens.identify(request);
    return {
      method: request.method,
      path: pathOf(request),
      status: response.statusCode,
      durationMs,
      client: caller.kind === 'client' ? caller.client : null,
    };
  };
  return {
    level,
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'authorization',
      ],
      censor: '[redacted]',
    },
    customAttributeKeys: { reqId: 'requestId' },
    // Bind only the request id to the request's loggers: never the request with its headers.
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: (request, response, error): Level | 'silent' => {
      if (error || response.statusCode >= 500) return 'error';
      if (response.statusCode >= 400) return 'warn';
      // The orchestrator polls health every few seconds: keep those lines out of `info`.
      return pathOf(request) === HEALTH_PATH ? 'debug' : 'info';
    },
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customSuccessObject: (request, response, value: { responseTime: number }) =>
      entry(request, response, value.responseTime),
    customErrorObject: (request, response, _error, value: { responseTime: number }) =>
      entry(request, response, value.responseTime),
  };
}
