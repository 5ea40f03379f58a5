import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RecordsService, Totals } from '@app/diseases';
import { InjectDisease } from '@app/common';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { RequireScope } from '../auth/require-scope.decorator';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { StatsSummaryResponse } from '../disease-routes/records.responses';

@ApiTags('Statistics')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('stats')
export class StatsController {
  constructor(
    @InjectDisease(RecordsService, 'covid') private readonly covid: RecordsService,
    @InjectDisease(RecordsService, 'mpox') private readonly mpox: RecordsService,
  ) {}

  @Get('summary')
  @RequireScope('covid:read', 'mpox:read')
  @HttpCache('private')
  @ApiOperation({ summary: 'COVID and MPOX totals, computed as for /covid/public/totals' })
  @ApiOkResponse({ description: 'Both totals', type: StatsSummaryResponse })
  async summary(): Promise<{ covid: Totals; mpox: Totals }> {
    const [covid, mpox] = await Promise.all([this.covid.totals(), this.mpox.totals()]);
    return { covid, mpox };
  }
}
