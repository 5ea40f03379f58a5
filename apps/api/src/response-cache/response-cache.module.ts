import { Module } from '@nestjs/common';
import { ResponseCache } from './response-cache';

/** The application's one `ResponseCache`, for the feature modules with `@CachedResponse()` routes. */
@Module({
  providers: [{ provide: ResponseCache, useFactory: () => new ResponseCache() }],
  exports: [ResponseCache],
})
export class ResponseCacheModule {}
