import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { MESSAGES } from '@app/common';
import { Public } from '../auth/public.decorator';
import { HealthResponse } from './health.response';
import { HealthReport, HealthService } from './health.service';

interface StatusSetter {
  status(code: number): unknown;
}

@Public()
@SkipThrottle()
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOperation({
    summary: 'Readiness of this instance (public, never rate-limited)',
    description: [
      '200 `ok`: the database (and Redis, when `REDIS_URL` is set) answers.',
      '200 `degraded`: the database answers, Redis does not; the instance serves and counts its',
      'rate limit locally until Redis is back.',
      '503 `unavailable`: the database does not answer; the instance keeps running and recovers',
      'by itself when the database is back.',
      '503 `stopping`: the instance received SIGTERM and finishes its requests in flight.',
    ].join(' '),
  })
  @ApiResponse({
    status: 200,
    description: 'Ready (`ok` or `degraded`)',
    type: HealthResponse,
    example: { status: 'ok', database: 'up', redis: 'up' },
  })
  @ApiResponse({
    status: 503,
    description: 'The database does not answer (`unavailable`), or the instance is stopping',
    type: HealthResponse,
    example: {
      status: 'unavailable',
      database: 'down',
      redis: 'up',
      error: MESSAGES.databaseUnavailable,
    },
  })
  async check(@Res({ passthrough: true }) response: StatusSetter): Promise<HealthReport> {
    const report = await this.health.check();
    response.status(
      report.status === 'unavailable' || report.status === 'stopping'
        ? HttpStatus.SERVICE_UNAVAILABLE
        : HttpStatus.OK,
    );
    return report;
  }
}
