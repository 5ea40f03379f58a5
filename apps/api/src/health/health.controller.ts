import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { Public } from '../auth/public.decorator';
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
    summary: 'Readiness: 200 when the database answers, 503 otherwise (never rate-limited)',
  })
  @ApiResponse({ status: 200, example: { status: 'ok', database: 'up' } })
  @ApiResponse({ status: 503, example: { status: 'unavailable', database: 'down' } })
  async check(@Res({ passthrough: true }) response: StatusSetter): Promise<HealthReport> {
    const report = await this.health.check();
    response.status(report.status === 'ok' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
