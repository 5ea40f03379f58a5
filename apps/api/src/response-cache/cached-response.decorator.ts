import { UseInterceptors } from '@nestjs/common';
import { ResponseCacheInterceptor } from './response-cache.interceptor';

/**
 * For GET routes whose handler answers a `CachedValue` (JSON text read through a `ReadCache`) that
 * depends only on the URL, never on the caller, a header or the time: the answer is sent as is, and
 * served again for the same URL, while the `ReadCache` holds it, without Nest's router, pipes and
 * controller. Who may have it is still decided for every request: the global guards (the token,
 * the rate limit) run as Nest runs them, see `serveCachedResponses`. A handler may answer other
 * values too (a stream): those pass through untouched and are never kept.
 */
export const CachedResponse = (): MethodDecorator & ClassDecorator =>
  UseInterceptors(ResponseCacheInterceptor);
