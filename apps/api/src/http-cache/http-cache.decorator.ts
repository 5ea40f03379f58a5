import { SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { HTTP_CACHE_SCOPE, HttpCacheScope } from './http-cache-policy';
import { HttpCacheInterceptor } from './http-cache.interceptor';
import { CompressedByApi } from '../compression/response-compression';

/**
 * Makes a GET route's JSON answers cacheable over HTTP: a strong `ETag` (a digest of the body),
 * the scope's `Cache-Control` (and `Vary: Authorization` when private), and a 304 without a body
 * when `If-None-Match` names the current tag. The guards run first, so a 304 is still counted by
 * the rate limit. Answers that are streamed pass through untouched, but for their compression,
 * which the interceptor does for every answer of these routes. On a controller or a route.
 */
export const HttpCache = (scope: HttpCacheScope): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(HTTP_CACHE_SCOPE, scope),
    UseInterceptors(HttpCacheInterceptor),
    CompressedByApi(),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'An `ETag` received earlier: answered 304 without a body while the answer is the same',
      schema: { type: 'string' },
    }),
    ApiResponse({
      status: 304,
      description:
        'Not modified: the `ETag` in `If-None-Match` is still current (no body). Counted by the ' +
        'rate limit like any other answer.',
      headers: {
        ETag: { $ref: '#/components/headers/ETag' },
        'Cache-Control': { $ref: `#/components/headers/Cache-Control-${scope}` },
        ...(scope === 'private' && { Vary: { $ref: '#/components/headers/Vary-private' } }),
      },
    }),
  );
