/**
 * Compressed answers: gzip or br when the client asks (`Accept-Encoding`), streamed lists
 * included, from COMPRESSION_THRESHOLD_BYTES on; smaller answers go as they are. The compressed
 * variant carries the weak form of the identity answer's tag, `If-None-Match` still gives a 304,
 * and every answer that may be compressed varies by `Accept-Encoding`. Raw bytes over a socket:
 * supertest would decode them.
 */
import { IncomingHttpHeaders, get } from 'node:http';
import { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { addDays } from '@app/common';
import { COVID_DISEASE, RecordValues } from '@app/diseases';
import { COMPRESSION_THRESHOLD_BYTES } from '@api/compression/response-compression';
import { TEST_ORIGIN, seedWriter } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const DECODE: Record<string, (body: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
};

describe('compressed answers', () => {
  let t: TestApp;
  let port: number;

  /** One GET, its body as sent on the wire (not decoded). */
  const raw = (path: string, headers: Record<string, string> = {}): Promise<Raw> =>
    new Promise((resolve, reject) => {
      get({ port, path, headers: { ...t.auth(), ...headers }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      }).on('error', reject);
    });

  beforeAll(async () => {
    t = await bootTestApp();
    // 3,000 records: a full list of 120 to 330 KB, streamed in pages.
    const records: RecordValues[] = Array.from({ length: 3000 }, (_, i) => ({
      date: addDays('2020-01-01', i % 1000),
      country: ['Chile', 'Peru', "Côte d'Ivoire"][Math.floor(i / 1000)],
      total_cases: i * 17,
      new_cases: i % 13,
      total_deaths: i,
      new_deaths: i % 3,
    }));
    await seedWriter(t.dataSource, COVID_DISEASE).upsertMany(records, TEST_ORIGIN);
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it("leaves the routes that compress their own answers without the plugin's hooks", () => {
    // The plugin's hooks cost every request of a route CPU time, even an answer from memory.
    const lines = t.app
      .getHttpAdapter()
      .getInstance()
      .printRoutes({ includeHooks: true, commonPrefix: false, method: 'GET' })
      .split('\n');
    const hooksOf = (path: string) => {
      const at = lines.findIndex((line) => line.endsWith(`── ${path} (GET)`));
      expect(at).toBeGreaterThanOrEqual(0);
      const after = lines.slice(at + 1);
      return after
        .slice(
          0,
          after.findIndex((line) => !line.includes('•')),
        )
        .join('\n');
    };
    for (const path of ['api/covid/public/latest', 'api/mpox/public/summary', 'api/covid/data']) {
      expect(hooksOf(path)).not.toMatch(/onSend\(\)|onRequest\(\)/);
    }
    // Others (the metrics, the documentation, static files) are compressed by the plugin.
    expect(hooksOf('api/metrics')).toMatch(/onSend\(\)/);
  });

  describe.each(['json', 'csv', 'ndjson'])('the whole list streamed as %s', (format) => {
    const path = `/api/covid/data?limit=100000000&format=${format}`;
    let identity: Raw;
    beforeAll(async () => {
      identity = await raw(path);
    });

    it('goes as it is without Accept-Encoding, and says it may vary by it', () => {
      expect(identity.status).toBe(200);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.headers.vary).toBe('Authorization, Accept, accept-encoding');
      expect(identity.body.length).toBeGreaterThan(100_000);
    });

    it.each(['gzip', 'br'])('decodes from %s to exactly the same bytes', async (encoding) => {
      const res = await raw(path, { 'Accept-Encoding': encoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toBe('Authorization, Accept, accept-encoding');
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers['content-type']).toBe(identity.headers['content-type']);
      // The bench checks the ratio on the real files; these made-up rows compress less.
      expect(res.body.length).toBeLessThan(identity.body.length / 2);
      expect(DECODE[encoding](res.body).equals(identity.body)).toBe(true);
    });
  });

  it('prefers br when both are welcome, honours q-values, and refuses nothing', async () => {
    const path = '/api/covid/data?limit=100000000';
    const encoding = async (accept: string) =>
      (await raw(path, { 'Accept-Encoding': accept })).headers['content-encoding'];
    expect(await encoding('gzip, deflate, br')).toBe('br');
    expect(await encoding('br;q=0.5, gzip')).toBe('gzip');
    expect(await encoding('*')).toBe('gzip');
    expect(await encoding('deflate')).toBeUndefined();
    expect(await encoding('identity')).toBeUndefined();
    expect(await encoding('gzip;q=0, br;q=0')).toBeUndefined();
  });

  describe('a page kept in memory (answered again before Nest)', () => {
    const path = '/api/covid/data?limit=100';
    let identity: Raw;
    beforeAll(async () => {
      identity = await raw(path);
      expect(identity.body.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    });

    it('is compressed with the weak form of its tag, by Nest and from memory alike', async () => {
      const tag = String(identity.headers.etag);
      expect(tag).toMatch(/^"[\w-]{27}"$/);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.headers.vary).toBe('Authorization, Accept, accept-encoding');
      // CACHE_TTL_MS (1 s) holds it: the second answer comes from memory.
      for (const encoding of ['gzip', 'br', 'gzip']) {
        const res = await raw(path, { 'Accept-Encoding': encoding });
        expect(res.status).toBe(200);
        expect(res.headers).toMatchObject({
          'content-encoding': encoding,
          vary: 'Authorization, Accept, accept-encoding',
          etag: `W/${tag}`,
          'cache-control': 'private, no-cache',
        });
        expect(DECODE[encoding](res.body).equals(identity.body)).toBe(true);
      }
    });

    it('answers 304 to If-None-Match with either form of the tag, with the variant tag', async () => {
      const tag = String(identity.headers.etag);
      for (const sent of [tag, `W/${tag}`]) {
        const compressed = await raw(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': sent });
        expect(compressed.status).toBe(304);
        expect(compressed.body.length).toBe(0);
        expect(compressed.headers.etag).toBe(`W/${tag}`);
        expect(compressed.headers['content-encoding']).toBeUndefined();
        expect(compressed.headers.vary).toBe('Authorization, Accept, accept-encoding');
        const plain = await raw(path, { 'If-None-Match': sent });
        expect(plain.status).toBe(304);
        expect(plain.headers.etag).toBe(tag);
      }
    });
  });

  it('sends an answer under the threshold as it is, with its strong tag and no Vary', async () => {
    for (let i = 0; i < 2; i++) {
      // The first by Nest, the second from memory.
      const res = await raw('/api/covid/public/totals', { 'Accept-Encoding': 'gzip, br' });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBeUndefined();
      expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
      expect(JSON.parse(res.body.toString())).toEqual({
        total_cases: expect.any(Number),
        total_deaths: expect.any(Number),
      });
    }
    const record = await raw('/api/covid/data/1', { 'Accept-Encoding': 'gzip' });
    expect(record.status).toBe(200);
    expect(record.headers['content-encoding']).toBeUndefined();
    expect(record.headers.vary).toBe('Authorization');
  });
});
