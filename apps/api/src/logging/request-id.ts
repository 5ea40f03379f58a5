import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

/** An incoming `X-Request-Id` is kept when it is this sane (no blanks, quotes or control characters). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** The name as Node and Fastify key it (lower case): Fastify need not lower it on every request. */
const REQUEST_ID_KEY = REQUEST_ID_HEADER.toLowerCase();

/**
 * Fastify's `genReqId`: the caller's `X-Request-Id` when it is sane, otherwise a new UUID. Fastify
 * hands it to the raw request, where the request log line picks it up.
 */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_KEY];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Sends the request id back as `X-Request-Id` on every response (errors and 404s included). */
export function echoRequestId(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      void reply.header(REQUEST_ID_KEY, request.id);
      done();
    });
}
