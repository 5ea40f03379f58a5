import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectSeries, SeriesService, SeriesSummary } from '@app/series';
import { Public } from '../auth/public.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { SeriesSummaryResponse } from '../series/series.responses';

@Public()
@ApiTags('MPOX (public)')
@ApiCommonErrors()
@Controller('mpox/public')
export class MpoxPublicController {
  constructor(@InjectSeries('mpox') private readonly series: SeriesService) {}

  @Get('summary')
  @ApiOperation({
    summary:
      'MPOX totals (sums of each country’s latest record), countries, last date and top 5 countries',
  })
  @ApiOkResponse({ description: 'The summary', type: SeriesSummaryResponse })
  summary(): Promise<SeriesSummary> {
    return this.series.summary();
  }
}
