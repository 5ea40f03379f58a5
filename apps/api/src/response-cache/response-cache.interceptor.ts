import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, map } from 'rxjs';
import { CachedValue } from '@app/series';
import { ResponseCache } from './response-cache';

/**
 * For routes whose handler answers a `CachedValue` (JSON text read through a `ReadCache`): sends
 * the text, and keeps a successful GET answer in the `ResponseCache` for as long as the
 * `ReadCache` holds the value. Runs only when the answer is not kept (or no longer current):
 * kept answers are served before Nest's router (`serveCachedResponses`).
 */
@Injectable()
export class ResponseCacheInterceptor implements NestInterceptor {
  constructor(private readonly cache: ResponseCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((answer: unknown) => {
        if (!(answer instanceof CachedValue)) return answer;
        const cached = answer as CachedValue<unknown>;
        const http = context.switchToHttp();
        const request = http.getRequest<FastifyRequest>();
        const reply = http.getResponse<FastifyReply>();
        const contentType = reply.getHeader('content-type');
        if (
          request.method === 'GET' &&
          reply.statusCode === 200 &&
          typeof cached.value === 'string' &&
          typeof contentType === 'string'
        ) {
          this.cache.set(request.url, {
            contentType,
            source: cached as CachedValue<string>,
            classRef: context.getClass(),
            handler: context.getHandler() as (...args: never[]) => unknown,
          });
        }
        return cached.value;
      }),
    );
  }
}
