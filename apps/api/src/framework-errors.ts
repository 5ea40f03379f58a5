import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import { MESSAGES } from '@app/common';
import { REQUEST_ID_HEADER } from './logging/request-id';
import { API_SECURITY_HEADERS } from './security/http-security';
import { JSON_TYPE } from './common/json-content-type';

/**
 * Errors that Fastify raises before a request reaches Nest (a malformed percent-encoding in the
 * path, a path parameter that is too long), shaped like every other error: `{ error }` in JSON,
 * with the security headers and the request id (the hooks that set them have not run).
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, message] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, MESSAGES.badUrl]
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, MESSAGES.urlTooLong]
        : [500, MESSAGES.internal];
  void reply
    .code(status)
    .headers({ ...API_SECURITY_HEADERS, 'x-request-id': request.id })
    .type(JSON_TYPE)
    .send({ error: message });
}

/**
 * Requests that Node's HTTP parser refuses (control characters in a header, a bad chunk size,
 * headers too large, a client too slow): answered in JSON like everything else, with the security
 * headers and a request id of its own (there is no request to take one from), then closed.
 * Mirrors Fastify's default handler, with the API's messages.
 */
const RAW_SECURITY_HEADERS = Object.entries(API_SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/**
 * An HTTP/1.1 request without `Host` (RFC 9112: 400). Node refuses it itself with an empty body,
 * unless `requireHostHeader` is off (bootstrap), so that it gets the API's JSON error here, with
 * the security headers and request id that the earlier hooks set. HTTP/1.0 needs no `Host`.
 */
export function requireHostHeader(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      const { headers, httpVersion } = request.raw;
      if (headers.host === undefined && httpVersion !== '1.0') {
        void reply
          .code(400)
          .header('connection', 'close')
          .type(JSON_TYPE)
          .send({ error: MESSAGES.malformedRequest });
        return;
      }
      done();
    });
}

export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, MESSAGES.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, MESSAGES.headersTooLarge]
        : [400, MESSAGES.malformedRequest];
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${RAW_SECURITY_HEADERS}` +
        `${REQUEST_ID_HEADER}: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: ${JSON_TYPE}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
