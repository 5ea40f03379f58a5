import { Module } from '@nestjs/common';
import { ResponseCacheModule } from '../response-cache/response-cache.module';
import { HttpCachePolicy } from './http-cache-policy';
import { HttpCacheInterceptor } from './http-cache.interceptor';

/** For the feature modules whose routes carry `@HttpCache()` or `@CachedResponse()`. */
@Module({
  imports: [ResponseCacheModule],
  providers: [HttpCachePolicy, HttpCacheInterceptor],
  exports: [HttpCachePolicy, HttpCacheInterceptor, ResponseCacheModule],
})
export class HttpCacheModule {}
