import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';

/** How much of a refused body is read and dropped: this many times BODY_LIMIT... */
export const DRAIN_LIMIT_FACTOR = 4;
/** ...within this long; past either, the connection is cut. */
export const DRAIN_MS = 10_000;

/**
 * A body over BODY_LIMIT is answered 413 before it is read, and the connection closed once the
 * answer is sent. A client that sends the body whole without waiting for `100-continue` is still
 * writing then: the unread bytes would reset the connection, and Node's http or Python's urllib
 * report EPIPE instead of the answer. So the answer is sent at once (its `Content-Length` tells
 * the client it is whole) but ends, and the connection closes, only once the rest of the body has
 * been read and dropped, within bounds (decision 0044).
 */
export function drainRefusedBodies(app: NestFastifyApplication, bodyLimitBytes: number): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode !== 413 || request.raw.complete || typeof payload !== 'string') {
        done(null, payload);
        return;
      }
      const answer = new PassThrough();
      answer.write(payload);
      void reply.header('content-length', Buffer.byteLength(payload));
      dropRest(request.raw, DRAIN_LIMIT_FACTOR * bodyLimitBytes, () => answer.end());
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
