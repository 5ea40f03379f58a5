import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import { MESSAGES } from '@app/common';
import { API_SECURITY_HEADERS } from '../security/http-security';
import { JSON_TYPE } from './json-content-type';

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
 * headers too large, a client too slow): answered in JSON like everything else, then closed.
 * Mirrors Fastify's default handler, with the API's messages.
 */
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
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: ${JSON_TYPE}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
