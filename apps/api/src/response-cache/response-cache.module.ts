import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AnswerStore } from '../http-cache/answer-store';
import { HttpCacheModule } from '../http-cache/http-cache.module';
import { CachedRouteCheck } from './cached-route-check.service';
import { ResponseCache } from './response-cache';

/**
 * For the feature modules whose routes carry `@CachedResponse()`: the HTTP cache, the
 * application's one `ResponseCache` (the answers of those routes) as the interceptor's
 * `AnswerStore`, and the start-up check of those routes.
 */
@Module({
  imports: [DiscoveryModule, HttpCacheModule],
  providers: [
    { provide: ResponseCache, useFactory: () => new ResponseCache() },
    { provide: AnswerStore, useExisting: ResponseCache },
    CachedRouteCheck,
  ],
  exports: [ResponseCache, AnswerStore, HttpCacheModule],
})
export class ResponseCacheModule {}
