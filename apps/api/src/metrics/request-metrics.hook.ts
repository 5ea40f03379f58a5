import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ResponseCache } from '../response-cache/response-cache';
import { MetricsService } from './metrics.service';

/**
 * Counts every response in one `onResponse` hook, answers served from the response cache before
 * Nest's router and refusals of the guards included, under Fastify's route template
 * (`routeOptions.url`; one fixed label when no route matched): a few additions per request.
 */
export function countRequests(app: NestFastifyApplication): void {
  const counts = app.get(MetricsService).requests;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const counters = counts.of(request.routeOptions.url, request.method);
      counters.record(reply.statusCode, reply.elapsedTime / 1000);
      if (ResponseCache.wasServed(request)) counters.cacheHits++;
      else if (ResponseCache.wasMissed(request)) counters.cacheMisses++;
      done();
    });
}
