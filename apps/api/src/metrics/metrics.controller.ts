import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { MESSAGES } from '@app/common';
import { Registry } from 'prom-client';
import { RequireScope } from '../auth/require-scope.decorator';
import { ApiTokenErrors, ErrorResponse } from '../common/api-responses';
import { SkipThrottleFor } from '../rate-limit/skip-throttle-for.decorator';
import { MetricsService } from './metrics.service';

/**
 * Prometheus's scrape target, for tokens with `metrics:read`, whose requests the rate limit does
 * not count: a scraper is never answered 429. Other callers are counted as on any route
 * (docs/decisions/0022-prometheus-metrics.md).
 */
@ApiTags('Metrics')
@ApiTokenErrors()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @RequireScope('metrics:read')
  @SkipThrottleFor('metrics:read')
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: "This instance's metrics, in the Prometheus text format",
    description:
      'Requests by route template, method and status class, latency, rate-limit refusals, ' +
      'database query time and pool, cache hits and misses, scheduled sync runs, and the ' +
      "process's own metrics. Each instance answers for itself: scrape every instance. The rate " +
      'limit does not count requests with a `metrics:read` token (a scraper never gets 429); ' +
      'it counts every other caller, as on any route.',
  })
  @ApiOkResponse({
    description: 'The metrics (`text/plain; version=0.0.4; charset=utf-8`)',
    content: {
      [Registry.PROMETHEUS_CONTENT_TYPE]: {
        schema: { type: 'string' },
        example:
          '# HELP http_requests_total HTTP responses by route template, method and status class\n' +
          '# TYPE http_requests_total counter\n' +
          'http_requests_total{route="/api/covid/public/latest",method="GET",status_class="2xx"} 3\n',
      },
    },
  })
  @ApiResponse({
    status: 429,
    description:
      'Only to callers without a `metrics:read` token, once their budget is used (as on any route)',
    type: ErrorResponse,
    example: { error: MESSAGES.tooManyRequests },
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before the next request (at least 1)',
        schema: { type: 'integer', minimum: 1, example: 42 },
      },
    },
  })
  @ApiResponse({
    status: 500,
    description: 'Unexpected error (never a stack trace or SQL text)',
    type: ErrorResponse,
    example: { error: MESSAGES.internal },
  })
  metricsText(): Promise<string> {
    return this.metrics.render();
  }
}
