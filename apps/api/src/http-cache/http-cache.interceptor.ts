import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  Optional,
  StreamableFile,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, map } from 'rxjs';
import { CachedValue } from '@app/diseases';
import { JSON_TYPE } from '../common/json-content-type';
import { RouteMemo } from '../route-metadata/route-memo';
import { NEGOTIATES_FORMAT } from '../list-routes/list-route.decorator';
import {
  ContentCoding,
  VARY_ENCODING,
  compressBody,
  compressStream,
  compressionOf,
} from '../compression/response-compression';
import { AnswerStore } from './answer-store';
import { ifNoneMatchHits } from './entity-tag';
import {
  HTTP_CACHE_SCOPE,
  HttpCachePolicy,
  HttpCacheScope,
  addVary,
  notModified,
  setCacheHeaders,
  varyOf,
} from './http-cache-policy';

interface RouteCaching {
  scope: HttpCacheScope;
  /** `@CachedResponse()`: the answer is also kept in memory and served before Nest's router. */
  kept: boolean;
  /** `@ListRoute()`: the answer's format may come from `Accept`. */
  negotiated: boolean;
}

/**
 * The interceptor of `@HttpCache()` (and `@CachedResponse()`): sends the answer as JSON text with
 * its caching headers, or a 304 when the client already has it, compressed as the client asks
 * (these routes have no compression hook: `CompressedByApi`). A `CachedValue` (JSON text read
 * through a `ReadCache`) of a `@CachedResponse()` GET is handed to the `AnswerStore` (the response
 * cache), headers included, which keeps it for as long as the `ReadCache` holds it.
 */
@Injectable()
export class HttpCacheInterceptor implements NestInterceptor {
  private readonly routes = new RouteMemo<RouteCaching>((handler, classRef) => ({
    scope:
      this.reflector.getAllAndOverride<HttpCacheScope | undefined>(HTTP_CACHE_SCOPE, [
        handler,
        classRef,
      ]) ?? 'private',
    kept: this.store?.keeps(handler, classRef) === true,
    negotiated:
      this.reflector.getAllAndOverride<boolean>(NEGOTIATES_FORMAT, [handler, classRef]) === true,
  }));

  constructor(
    private readonly reflector: Reflector,
    private readonly policy: HttpCachePolicy,
    @Optional() private readonly store?: AnswerStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.routes.get(context);
    return next.handle().pipe(map((answer: unknown) => this.answer(context, route, answer)));
  }

  private answer(context: ExecutionContext, route: RouteCaching, answer: unknown): unknown {
    const source = answer instanceof CachedValue ? (answer as CachedValue<unknown>) : undefined;
    const value = source === undefined ? answer : source.value;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (value instanceof StreamableFile) {
      // Streamed: no caching headers, but its format may still come from `Accept`.
      const vary = varyOf(route.scope, route.negotiated);
      // Compressed when the client asks, whatever its length.
      addVary(reply, vary === undefined ? VARY_ENCODING : `${vary}, ${VARY_ENCODING}`);
      const coding = compressionOf(request);
      if (coding === undefined) return value;
      void reply.header('content-encoding', coding);
      return new StreamableFile(compressStream(value.getStream(), coding), {
        ...value.options,
        length: undefined,
      });
    }
    if (value === undefined || reply.statusCode !== 200) return value;
    if (route.kept && request.method === 'GET') this.store?.noteMissed(request);
    // Encoded once, for its tag and for the socket: a large new string costs more to encode
    // than to hash, and was encoded twice.
    const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
    if (reply.getHeader('content-type') === undefined) void reply.header('content-type', JSON_TYPE);
    const preset = reply.getHeader('cache-control');
    const headers = this.policy.headersOf(route.scope, body, route.negotiated);
    // One the handler set (an answer as of a settled instant) stands.
    if (typeof preset === 'string') headers['cache-control'] = preset;
    const coding = setCacheHeaders(reply, headers, body.length);
    const contentType = reply.getHeader('content-type');
    const kept =
      route.kept &&
      source !== undefined &&
      request.method === 'GET' &&
      typeof source.value === 'string' &&
      typeof contentType === 'string';
    const notModifiedHere = ifNoneMatchHits(request.headers['if-none-match'], headers.etag);
    const compressed =
      coding === undefined || notModifiedHere
        ? undefined
        : this.compressed(request, body, headers.etag, coding, kept);
    if (kept) {
      this.store?.keep(context, {
        contentType,
        source: source as CachedValue<string>,
        headers,
        bytes: body.length,
        compressed: compressed === undefined ? {} : { [coding as ContentCoding]: compressed },
      });
    }
    if (!notModifiedHere) {
      if (compressed === undefined) return body;
      void reply.header('content-encoding', coding);
      return compressed;
    }
    notModified(reply);
    return undefined;
  }

  /** `body` compressed, or the same body's kept variant when `kept`, compressed once already. */
  private compressed(
    request: FastifyRequest,
    body: Buffer,
    etag: string,
    coding: ContentCoding,
    kept: boolean,
  ): Buffer {
    const known = kept
      ? this.store?.compressedVariant(request.url, request.headers.accept, etag, coding)
      : undefined;
    return known ?? compressBody(body, coding);
  }
}
