import fastifyCompress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyRequest } from 'fastify';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

/**
 * Compresses answers when the client asks (`Accept-Encoding`: br or gzip), streamed lists
 * included, from `COMPRESSION_THRESHOLD_BYTES` on, through `@fastify/compress` (hooks on every
 * route declared after it, so registered before any). Brotli at quality 4 and gzip at level 6
 * keep a full dump about as fast as without compression (the bench's "Full dump with Accept-Encoding: gzip").
 */
export async function registerCompression(app: NestFastifyApplication): Promise<void> {
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
 * How an answer of `size` bytes to `request` goes: compressed with the coding returned, as
 * `@fastify/compress` decides (same threshold, same negotiation of `Accept-Encoding`, `*` and
 * `x-gzip` read as gzip), or as it is (undefined). So a 304 carries the tag its 200 would have.
 */
export function compressionOf(request: FastifyRequest, size: number): ContentCoding | undefined {
  if (size < COMPRESSION_THRESHOLD_BYTES) return undefined;
  const accepted = request.headers['accept-encoding'];
  if (accepted === undefined || request.headers['x-no-compression'] !== undefined) return undefined;
  const header = accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
  return negotiate(header, COMPRESSION_ENCODINGS) ?? undefined;
}

/** `body` compressed as the plugin compresses it (answers kept in memory, compressed once). */
export function compressBody(body: string, coding: ContentCoding): Buffer {
  return coding === 'br' ? brotliCompressSync(body, BROTLI_OPTIONS) : gzipSync(body);
}

/**
 * The tag of the variant sent: a compressed answer's bytes differ from the identity answer's, so
 * its tag is the weak form of the body's (RFC 9110 8.8.1: the two are equivalent, not the same
 * bytes). `If-None-Match` compares weakly, so either form revalidates either variant.
 */
export function variantTag(tag: string, compressed: boolean): string {
  return compressed ? `W/${tag}` : tag;
}
