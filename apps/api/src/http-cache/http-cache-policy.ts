import { Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { AppConfig, InjectConfig } from '@app/config';
import {
  COMPRESSION_THRESHOLD_BYTES,
  ContentCoding,
  VARY_ENCODING,
  compressionOf,
  variantTag,
} from '../compression/response-compression';
import { entityTag } from './entity-tag';

/**
 * Who may keep an answer: `public` (figures anyone may read: browsers, CDNs and proxies keep them
 * for `HTTP_CACHE_MAX_AGE` seconds, and may serve them `HTTP_CACHE_SWR` seconds longer while they
 * revalidate) or `private` (token routes: only the caller's own browser, which revalidates each
 * time; shared caches keep nothing).
 */
export type HttpCacheScope = 'public' | 'private';

/** Metadata key of a route's `HttpCacheScope` (`@HttpCache()`). */
export const HTTP_CACHE_SCOPE = 'httpCacheScope';

/** The caching headers of one answer, ready to be set on a reply. */
export interface CacheHeaders {
  etag: string;
  'cache-control': string;
  /**
   * Request headers the answer depends on, besides the URL (`Authorization` on token routes,
   * `Accept` on lists, which it may choose the format of).
   */
  vary?: string;
}

/** The `Cache-Control` of each scope (from the configuration) and the headers of an answer. */
@Injectable()
export class HttpCachePolicy {
  private readonly cacheControl: Record<HttpCacheScope, string>;

  constructor(@InjectConfig() config: AppConfig) {
    const { maxAgeSeconds, staleWhileRevalidateSeconds } = config.httpCache;
    this.cacheControl = {
      public: `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}`,
      private: 'private, no-cache',
    };
  }

  /**
   * The tag is the body's digest: a list's JSON, CSV and NDJSON bodies always differ (brackets,
   * header row, lines), so each format has its own tag.
   */
  headersOf(scope: HttpCacheScope, body: string | Buffer, negotiated = false): CacheHeaders {
    const vary = varyOf(scope, negotiated);
    return {
      etag: entityTag(body),
      'cache-control': this.cacheControl[scope],
      ...(vary !== undefined && { vary }),
    };
  }
}

/**
 * How long after an instant the answers as of it may still change: a revision's `at` is taken
 * before its write commits, so a write still running may yet commit revisions a little in the past.
 */
export const AS_OF_SETTLED_MS = 60_000;

/** `Cache-Control` of a public answer as of an instant that has settled: it no longer changes. */
export const SETTLED_CACHE_CONTROL = 'public, max-age=86400, immutable';

/**
 * A public answer as of `asOf` (epoch ms), when that instant has settled: shared caches may keep
 * it a day (the interceptor keeps a `Cache-Control` the handler set). Sooner, the route's own.
 */
export function setAsOfCacheControl(reply: FastifyReply, asOf: number, now = Date.now()): void {
  if (now - asOf >= AS_OF_SETTLED_MS) void reply.header('cache-control', SETTLED_CACHE_CONTROL);
}

/** The request headers an answer depends on besides its URL, if any. */
export function varyOf(scope: HttpCacheScope, negotiated: boolean): string | undefined {
  if (scope === 'private') return negotiated ? 'Authorization, Accept' : 'Authorization';
  return negotiated ? 'Accept' : undefined;
}

/**
 * Sets `headers` on `reply` for a body of `bytes`, adding to a `Vary` that is there already
 * (CORS's `Origin`) rather than replacing it. Both the answers of Nest and those served before
 * its router go through here. A body large enough to be compressed varies by `Accept-Encoding`
 * too, and its compressed variant (and that variant's 304) carries the weak form of the tag.
 * Returns the coding the body will be compressed with, if any.
 */
export function setCacheHeaders(
  reply: FastifyReply,
  headers: CacheHeaders,
  bytes: number,
): ContentCoding | undefined {
  const coding = compressionOf(reply.request, bytes);
  const etag = variantTag(headers.etag, coding !== undefined);
  void reply.header('etag', etag).header('cache-control', headers['cache-control']);
  if (headers.vary !== undefined) addVary(reply, headers.vary);
  if (bytes >= COMPRESSION_THRESHOLD_BYTES) addVary(reply, VARY_ENCODING);
  return coding;
}

/** Adds `names` to the reply's `Vary` (CORS may have put `Origin` there). */
export function addVary(reply: FastifyReply, names: string): void {
  const vary = reply.getHeader('vary');
  void reply.header('vary', typeof vary === 'string' && vary !== '' ? `${vary}, ${names}` : names);
}

/** Turns `reply` into a 304: no body, hence no `Content-Type` either. */
export function notModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).removeHeader('content-type');
}
