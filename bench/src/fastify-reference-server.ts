import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fastify from 'fastify';
import { RecordedAnswer } from './bench-routes';

/**
 * A reference server of `bench:compare --reference`: bare Fastify (the version the API runs on,
 * without Nest, guards, pipes or database) answering each recorded GET with the API's bytes and
 * every header the API sent: a new request id from `genReqId`, set by an `onRequest` hook as the
 * API does, the others from memory. What the API would cost with Nest's share taken away. Run as
 * `node fastify-reference-server.js <port> <answers.json>`.
 */
async function main(): Promise<void> {
  const [port, file] = process.argv.slice(2);
  const byUrl = new Map(
    (JSON.parse(readFileSync(file, 'utf8')) as RecordedAnswer[])
      .filter((a) => a.method === 'GET')
      .map((a) => [a.url, a]),
  );
  const app = fastify({ genReqId: () => randomUUID(), keepAliveTimeout: 72_000 });
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.get('/health', (_request, reply) => reply.type('text/plain').send('ok'));
  app.get('/*', (request, reply) => {
    const answer = byUrl.get(request.url);
    if (!answer) return reply.code(404).send();
    return reply
      .code(answer.status)
      .headers(answer.headers)
      .type(answer.contentType)
      .send(answer.body);
  });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
