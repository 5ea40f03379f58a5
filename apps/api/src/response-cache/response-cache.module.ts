import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CachedRouteCheck } from './cached-route-check.service';
import { ResponseCache } from './response-cache';

/**
 * The application's one `ResponseCache` (the answers of `@CachedResponse()` routes), and the
 * start-up check of those routes.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [{ provide: ResponseCache, useFactory: () => new ResponseCache() }, CachedRouteCheck],
  exports: [ResponseCache],
})
export class ResponseCacheModule {}
