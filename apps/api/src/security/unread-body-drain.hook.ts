import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IncomingMessage } from 'node:http';
import { PassThrough, Stream } from 'node:stream';

/** How much of an unread body is read and dropped: this many times BODY_LIMIT... */
export const DRAIN_LIMIT_FACTOR = 4;
/** ...within this long; past either, the connection is cut. */
export const DRAIN_MS = 10_000;

/**
 * Some answers go out before the request's body was read: a 413 for a body over BODY_LIMIT, a
 * 415, and any GET (Fastify ignores a GET's body). A client that sends its body whole, without
 * waiting for `100-continue`, is still writing then: the unread bytes would reset the connection
 * once it closes, and Node's http or Python's urllib report EPIPE instead of the answer. So the
 * answer is sent at once (a `Content-Length` tells the client it is whole) but ends, and the
 * connection closes, only once the rest of the body has been read and dropped, within bounds
 * (decision 0044).
 */
export function drainUnreadBodies(app: NestFastifyApplication, bodyLimitBytes: number): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (request, reply, payload, done) => {
      const text = typeof payload === 'string' || Buffer.isBuffer(payload);
      if (request.raw.complete || !(text || payload instanceof Stream)) {
        done(null, payload);
        return;
      }
      const answer = new PassThrough();
      // The answer ends once both its payload is written and the body is drained.
      let pending = 2;
      const settle = () => --pending === 0 && answer.end();
      if (text) {
        answer.write(payload);
        void reply.header('content-length', Buffer.byteLength(payload));
        settle();
      } else {
        // A compressed or streamed answer: passed on as it comes.
        const stream = payload as Stream & NodeJS.ReadableStream;
        stream.once('end', settle);
        stream.once('error', (error: Error) => answer.destroy(error));
        stream.pipe(answer, { end: false });
      }
      dropRest(request.raw, DRAIN_LIMIT_FACTOR * bodyLimitBytes, settle);
      done(null, answer);
    });
}

/**
 * Reads the rest of `body` and drops it, then calls `drained`; past `limit` bytes or DRAIN_MS,
 * cuts the connection instead.
 */
function dropRest(body: IncomingMessage, limit: number, drained: () => void): void {
  let read = 0;
  const stop = () => {
    clearTimeout(timer);
    body.off('data', onData);
    body.off('end', finish);
    body.off('close', finish);
  };
  const finish = () => {
    stop();
    drained();
  };
  const cut = () => {
    stop();
    body.socket.destroy();
  };
  const onData = (chunk: Buffer | string) => {
    read += chunk.length;
    if (read > limit) cut();
  };
  // Not a reason to keep a stopping process alive.
  const timer = setTimeout(cut, DRAIN_MS).unref();
  body.on('data', onData);
  body.once('end', finish);
  body.once('close', finish);
  body.resume();
}
