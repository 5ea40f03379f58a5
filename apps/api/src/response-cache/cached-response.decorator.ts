import { SetMetadata, applyDecorators } from '@nestjs/common';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { HttpCacheScope } from '../http-cache/http-cache-policy';
import { KEEP_ANSWERS } from './response-cache';

/**
 * `@HttpCache(scope)`, and more: for GET routes whose handler answers a `CachedValue` (JSON text
 * read through a `ReadCache`) that depends only on the URL, never on the caller, a header or the
 * time. The answer is kept, and served again for the same URL while the `ReadCache` holds it,
 * before Nest's router: the global guards still run for every request (`serveCachedResponses`),
 * but the route's own guards, interceptors and pipes would not, so the application refuses to
 * start when such a route has any (`CachedRouteCheck`). A handler may answer other values too (a
 * stream): those pass through untouched and are never kept.
 */
export const CachedResponse = (scope: HttpCacheScope): MethodDecorator & ClassDecorator =>
  applyDecorators(HttpCache(scope), SetMetadata(KEEP_ANSWERS, true));
