/**
 * A body that the answer leaves unread (over BODY_LIMIT: 413; a media type refused: 415; a GET's
 * body, ignored) from a client that sends it whole, without `Expect: 100-continue`: the client
 * must read the answer, not a reset connection (Node's http and Python's urllib report EPIPE or
 * ECONNRESET when the server closes while they still write). The rest of the body is read and
 * dropped, up to a bound: a body far beyond it still gets its connection closed.
 */
import { MESSAGES } from '@app/common';
import { Agent, request as httpRequest } from 'node:http';
import { AddressInfo, Socket, connect } from 'node:net';
import { TestApp, bootTestApp } from '../../support/test-app';

const MB = 1024 * 1024;

interface Answer {
  status?: number;
  type?: string;
  body: string;
  /** Every error the client reported, by code (EPIPE, ECONNRESET). */
  errors: string[];
}

describe('a body over the limit sent whole (no Expect: 100-continue)', () => {
  let t: TestApp;
  let port: number;
  /** The server's side of each connection. */
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await bootTestApp({ BODY_LIMIT: '8mb' });
    t.app.getHttpServer().on('connection', (socket: Socket) => sockets.push(socket));
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  const agents = { keepAlive: new Agent({ keepAlive: true }) };
  afterAll(async () => {
    agents.keepAlive.destroy();
    await t.close();
  });

  /**
   * Sends `body` with Node's http client, written in one go: the answer, and every error either
   * side of the exchange reported until the request closed.
   */
  function send(
    body: Buffer,
    chunked: boolean,
    keepAlive: boolean,
    {
      method = 'POST',
      path = '/api/covid/data/bulk',
      type = 'application/json',
      gzip = false,
    } = {},
  ) {
    return new Promise<Answer>((resolve) => {
      const answer: Answer = { body: '', errors: [] };
      const failed = (error: NodeJS.ErrnoException) =>
        answer.errors.push(error.code ?? error.message);
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          // Without an agent, Node asks for `Connection: close`, as Python's urllib does.
          agent: keepAlive ? agents.keepAlive : false,
          headers: {
            'content-type': type,
            ...(gzip && { 'accept-encoding': 'gzip' }),
            ...(chunked ? {} : { 'content-length': String(body.length) }),
            ...t.auth(),
          },
        },
        (res) => {
          answer.status = res.statusCode;
          answer.type = res.headers['content-type'];
          res.on('data', (chunk: Buffer) => (answer.body += chunk.toString()));
          res.on('error', failed);
        },
      );
      req.on('error', failed);
      req.on('close', () => setImmediate(() => resolve(answer)));
      req.end(body);
    });
  }

  /** A JSON array of records, `size` bytes or a little more. */
  const records = (size: number) => {
    const one = JSON.stringify({
      date: '2021-03-01',
      country: 'Drain',
      total_cases: 1,
      new_cases: 1,
      total_deaths: 0,
      new_deaths: 0,
    });
    return Buffer.from(
      `[${Array(Math.ceil(size / one.length))
        .fill(one)
        .join(',')}]`,
    );
  };

  it.each([
    ['declared by its Content-Length', false, false],
    ['declared by its Content-Length, on a kept-alive connection', false, true],
    ['sent in chunks', true, false],
    ['sent in chunks, on a kept-alive connection', true, true],
  ])(
    'answers 413 JSON to a client that writes 24 MB at once (%s)',
    async (_, chunked, keepAlive) => {
      // Three times the limit: more than the kernel's buffers take in on their own.
      const answer = await send(records(24 * MB), chunked, keepAlive);
      expect(answer).toEqual({
        status: 413,
        type: 'application/json; charset=utf-8',
        body: JSON.stringify({ error: MESSAGES.payloadTooLarge }),
        errors: [],
      });
      const stored = await t.http.get('/api/covid/data').query({ country: 'Drain' }).set(t.auth());
      expect(stored.body).toEqual([]);
    },
  );

  it.each([
    ['a 415 (a media type refused)', { type: 'text/html' }, 415, MESSAGES.unsupportedMediaType],
    ['a GET with a body (ignored)', { method: 'GET', path: '/api/regions' }, 200, undefined],
    [
      'a GET with a body, answered compressed',
      { method: 'GET', path: '/api/regions', gzip: true },
      200,
      undefined,
    ],
    [
      'a 404 to a GET with a body',
      { method: 'GET', path: '/api/nowhere' },
      404,
      MESSAGES.routeNotFound,
    ],
    [
      'a GET with a body, answered the second time from the response cache',
      { method: 'GET', path: '/api/covid/public/latest' },
      200,
      undefined,
    ],
  ])(
    'answers %s in whole to a client that writes 6 MB at once',
    async (_, request, status, error) => {
      for (const size of [6 * MB, 3 * MB]) {
        const answer = await send(records(size), false, false, request);
        expect({ status: answer.status, errors: answer.errors }).toEqual({ status, errors: [] });
        if (error !== undefined) expect(JSON.parse(answer.body)).toEqual({ error });
      }
    },
  );

  it('reads and drops a few times the limit of a body far beyond it, then closes', async () => {
    sockets.length = 0;
    // A raw client that announces 1 GB and writes until the server closes the connection.
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const head =
      'POST /api/covid/data/bulk HTTP/1.1\r\nHost: localhost\r\n' +
      `Authorization: ${t.auth().Authorization}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${1024 * MB}\r\n\r\n`;
    socket.write(head);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let written = 0;
    const closed = new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.once('error', () => undefined);
    });
    const writeAll = async () => {
      while (!socket.destroyed && written < 1024 * MB) {
        written += chunk.length;
        if (!socket.write(chunk)) {
          await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
        }
      }
    };
    await Promise.all([writeAll(), closed]);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // Read up to four times the limit (8 MB), then closed.
    expect(sockets).toHaveLength(1);
    expect(sockets[0].bytesRead).toBeGreaterThanOrEqual(32 * MB);
    expect(sockets[0].bytesRead).toBeLessThan(34 * MB);
    expect(written).toBeLessThan(64 * MB);
  });
});
