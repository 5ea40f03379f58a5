import { Module } from '@nestjs/common';
import { HttpCachePolicy } from './http-cache-policy';
import { HttpCacheInterceptor } from './http-cache.interceptor';

/**
 * For the feature modules whose routes carry `@HttpCache()`; those with `@CachedResponse()` routes
 * import `ResponseCacheModule`, which brings this one and the store their answers are kept in.
 */
@Module({
  providers: [HttpCachePolicy, HttpCacheInterceptor],
  exports: [HttpCachePolicy, HttpCacheInterceptor],
})
export class HttpCacheModule {}
