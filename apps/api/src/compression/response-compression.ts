import fastifyCompress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyRequest } from 'fastify';
import { constants } from 'node:zlib';

/**
 * Answers smaller than this go as they are: a few packets at most, where compressing would cost
 * the answer more time than it saves on the wire (the public routes' usual answers among them).
 */
export const COMPRESSION_THRESHOLD_BYTES = 4096;

/** Content codings offered, in the order preferred when the client likes several equally. */
export const COMPRESSION_ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

/** The token the compression adds to `Vary` (its own spelling: it looks for it in lower case). */
export const VARY_ENCODING = 'accept-encoding';

/** JSON, NDJSON, CSV and other text: what the API answers, and nothing already compressed. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[/+](?:x-nd)?json(?:;|$)/;

/**
 * Compresses answers when the client asks (`Accept-Encoding`: br or gzip), streamed lists
 * included, from `COMPRESSION_THRESHOLD_BYTES` on, through `@fastify/compress` (hooks on every
 * route declared after it, so registered before any). Brotli at quality 4 and gzip at level 6
 * keep a full dump about as fast as without compression (bench, "Full dump, gzip").
 */
export async function registerCompression(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: COMPRESSION_ENCODINGS,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    // Request bodies are JSON as sent; a compressed one is refused like any other non-JSON body.
    globalDecompression: false,
  });
}

/**
 * Whether an answer of `size` bytes to `request` goes compressed: as `@fastify/compress` decides
 * (same threshold, same negotiation of `Accept-Encoding`, `*` and `x-gzip` read as gzip), so that
 * a 304 carries the tag its 200 would have.
 */
export function willCompress(request: FastifyRequest, size: number): boolean {
  if (size < COMPRESSION_THRESHOLD_BYTES) return false;
  const accepted = request.headers['accept-encoding'];
  if (accepted === undefined || request.headers['x-no-compression'] !== undefined) return false;
  const header = accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
  return negotiate(header, COMPRESSION_ENCODINGS) !== null;
}

/**
 * The tag of the variant sent: a compressed answer's bytes differ from the identity answer's, so
 * its tag is the weak form of the body's (RFC 9110 8.8.1: the two are equivalent, not the same
 * bytes). `If-None-Match` compares weakly, so either form revalidates either variant.
 */
export function variantTag(tag: string, compressed: boolean): string {
  return compressed ? `W/${tag}` : tag;
}
