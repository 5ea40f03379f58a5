import fastifyCompress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';
import { NestFastifyApplication, RouteConfig } from '@nestjs/platform-fastify';
import { FastifyRequest } from 'fastify';
import { Readable, pipeline } from 'node:stream';
import {
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzipSync,
} from 'node:zlib';

/**
 * Answers smaller than this go as they are: a few packets at most, where compressing would cost
 * the answer more time than it saves on the wire (the public routes' usual answers among them).
 */
export const COMPRESSION_THRESHOLD_BYTES = 4096;

export type ContentCoding = 'br' | 'gzip';

/** Content codings offered, in the order preferred when the client likes several equally. */
export const COMPRESSION_ENCODINGS: ContentCoding[] = ['br', 'gzip'];

/** Quality 4: near gzip's speed with a better ratio (11, zlib's default, is far slower). */
const BROTLI_OPTIONS = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 4,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};

/** The token the compression adds to `Vary` (its own spelling: it looks for it in lower case). */
export const VARY_ENCODING = 'accept-encoding';

/** JSON, NDJSON, CSV and other text: what the API answers, and nothing already compressed. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[/+](?:x-nd)?json(?:;|$)/;

/** The route option (`config`) of routes whose answers the API compresses itself. */
const COMPRESSED_BY_API = 'compressedByApi';

/**
 * Compresses answers when the client asks (`Accept-Encoding`: br or gzip), streamed lists
 * included, from `COMPRESSION_THRESHOLD_BYTES` on, through `@fastify/compress` (hooks on every
 * route declared after it, so registered before any), except on `@CompressedByApi()` routes,
 * which have no hook at all: the plugin's hooks cost every request measurable CPU time, even one
 * answered from memory that never needs them (bench:compare). Brotli at quality 4 and gzip at
 * level 6 keep a full dump about as fast as without compression (the bench's "Full dump with
 * Accept-Encoding: gzip").
 */
export async function registerCompression(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // Before the plugin's own `onRoute` hook, which reads the option.
  fastify.addHook('onRoute', (route) => {
    if ((route.config as Record<string, unknown> | undefined)?.[COMPRESSED_BY_API] === true) {
      route.compress = false;
    }
  });
  await app.register(fastifyCompress, {
    encodings: COMPRESSION_ENCODINGS,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
    brotliOptions: BROTLI_OPTIONS,
    // Request bodies are JSON as sent; a compressed one is refused like any other non-JSON body.
    globalDecompression: false,
  });
}

/**
 * Marks a route (or every route of a controller) whose answers the API compresses itself
 * (`compressBody`, `compressStream`, with the same rules as the plugin), so that the plugin
 * leaves it alone: `@HttpCache()`'s routes.
 */
export function CompressedByApi(): MethodDecorator & ClassDecorator {
  const mark = RouteConfig({ [COMPRESSED_BY_API]: true });
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor !== undefined) {
      mark(target, key as string | symbol, descriptor);
      return;
    }
    // On a controller: Nest's adapter reads a route's options from its method only.
    for (let proto = (target as { prototype: object }).prototype; proto !== Object.prototype;) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method = Object.getOwnPropertyDescriptor(proto, name);
        if (name !== 'constructor' && typeof method?.value === 'function')
          mark(proto, name, method);
      }
      proto = Object.getPrototypeOf(proto) as object;
    }
  };
}

/**
 * How an answer of `size` bytes (a stream: of any size) to `request` goes: compressed with the coding returned, as
 * `@fastify/compress` decides (same threshold, same negotiation of `Accept-Encoding`, `*` and
 * `x-gzip` read as gzip), or as it is (undefined). So a 304 carries the tag its 200 would have.
 */
export function compressionOf(request: FastifyRequest, size = Infinity): ContentCoding | undefined {
  if (size < COMPRESSION_THRESHOLD_BYTES) return undefined;
  const accepted = request.headers['accept-encoding'];
  if (accepted === undefined || request.headers['x-no-compression'] !== undefined) return undefined;
  const header = accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
  return negotiate(header, COMPRESSION_ENCODINGS) ?? undefined;
}

/** `body` compressed as the plugin compresses it (answers kept in memory, compressed once). */
export function compressBody(body: string | Buffer, coding: ContentCoding): Buffer {
  return coding === 'br' ? brotliCompressSync(body, BROTLI_OPTIONS) : gzipSync(body);
}

/** `body` compressed on the way, as the plugin compresses a stream. */
export function compressStream(body: Readable, coding: ContentCoding): Readable {
  const compressed = coding === 'br' ? createBrotliCompress(BROTLI_OPTIONS) : createGzip();
  // A failure of `body` fails the compressed stream, which its reader (Nest) reports.
  return pipeline(body, compressed, () => undefined);
}

/**
 * The tag of the variant sent: a compressed answer's bytes differ from the identity answer's, so
 * its tag is the weak form of the body's (RFC 9110 8.8.1: the two are equivalent, not the same
 * bytes). `If-None-Match` compares weakly, so either form revalidates either variant.
 */
export function variantTag(tag: string, compressed: boolean): string {
  return compressed ? `W/${tag}` : tag;
}
