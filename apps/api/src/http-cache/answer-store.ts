import { ExecutionContext } from '@nestjs/common';
import { CachedValue } from '@app/diseases';
import { ContentCoding } from '../compression/response-compression';
import { CacheHeaders } from './http-cache-policy';

type Handler = (...args: never[]) => unknown;
type ClassRef = abstract new (...args: never[]) => unknown;

/** An answer the interceptor sent, JSON text read through a `ReadCache`, with its headers. */
export interface SentAnswer {
  contentType: string;
  /** The cached value the controller answered: it says how long the answer stays current. */
  source: CachedValue<string>;
  /** `ETag`, `Cache-Control` and `Vary`, as the route's `@HttpCache()` set them. */
  headers: CacheHeaders;
  /** The body's length in bytes (UTF-8). */
  bytes: number;
  /** The body compressed, by coding, as sent (none yet: made when a client asks). */
  compressed: Partial<Record<ContentCoding, Buffer>>;
}

/**
 * Where `HttpCacheInterceptor` hands the answers of the routes whose answers are kept
 * (`@CachedResponse()`). Declared here and provided by the response cache (`ResponseCacheModule`),
 * which serves them again before Nest's router: the response cache builds on the HTTP cache, and
 * the HTTP cache does not depend on it. Without one (a module that does not import the response
 * cache), nothing is kept.
 */
export abstract class AnswerStore {
  /** Whether the route's answers are kept (asked once per route). */
  abstract keeps(handler: Handler, classRef: ClassRef): boolean;

  /** A GET of a kept route was answered by its controller (the metrics' cache misses). */
  abstract noteMissed(request: object): void;

  /** Keeps `answer`, sent for the GET of `context` to a route that `keeps`. */
  abstract keep(context: ExecutionContext, answer: SentAnswer): void;

  /** The body tagged `etag` kept for `url` and `accept`, compressed with `coding`, if it is. */
  abstract compressedVariant(
    url: string,
    accept: string | string[] | undefined,
    etag: string,
    coding: ContentCoding,
  ): Buffer | undefined;
}
