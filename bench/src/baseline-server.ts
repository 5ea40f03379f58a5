import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { RecordedAnswer } from './bench-routes';

/**
 * The baseline: a bare node:http server that answers each benchmarked route with the API's own
 * bytes, from memory. Run as `node baseline-server.js <port> <answers.json> [--api-headers]`.
 * With `--api-headers` (a reference server of `bench:compare --reference`, not the baseline), it
 * also sends every other header the API sent, with a new `x-request-id` each time as the API does.
 */
function main(): void {
  const [port, file, mode] = process.argv.slice(2);
  const withApiHeaders = mode === '--api-headers';
  const answers = JSON.parse(readFileSync(file, 'utf8')) as RecordedAnswer[];
  const byKey = new Map(
    answers.map((a) => [
      `${a.method} ${a.method === 'GET' ? a.url : a.url.split('?')[0]}`,
      { status: a.status, type: a.contentType, body: Buffer.from(a.body), headers: a.headers },
    ]),
  );
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = `${req.method} ${req.method === 'GET' ? req.url : req.url?.split('?')[0]}`;
      const answer =
        key === 'GET /health'
          ? { status: 200, type: 'text/plain', body: 'ok', headers: {} }
          : byKey.get(key);
      if (!answer) {
        res.writeHead(404).end();
        return;
      }
      // The baseline's own answer stays as lean as it was: no header beyond type and length.
      res.writeHead(
        answer.status,
        withApiHeaders
          ? withHeadersOf(answer)
          : { 'content-type': answer.type, 'content-length': answer.body.length },
      );
      res.end(answer.body);
    });
  });
  server.keepAliveTimeout = 72_000;
  server.listen(Number(port), '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

/**
 * Every header the API sent, built by assignment as Fastify builds its replies' headers: with an
 * object literal spread from the recorded ones, Node's `writeHead` took far longer, and this
 * reference charged that to the headers themselves.
 */
function withHeadersOf(answer: {
  type: string;
  body: { length: number };
  headers: Record<string, string>;
}): Record<string, string | number> {
  const headers: Record<string, string | number> = {};
  for (const name of Object.keys(answer.headers)) headers[name] = answer.headers[name];
  headers['x-request-id'] = randomUUID();
  headers['content-type'] = answer.type;
  headers['content-length'] = answer.body.length;
  return headers;
}

main();
