import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CachedValue, RecordsService } from '@app/diseases';
import { InjectDisease } from '@app/common';
import { Public } from '../auth/public.decorator';
import { CachedResponse } from '../response-cache/cached-response.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { JSON_TYPE } from '../common/json-content-type';
import { DiseaseSummaryResponse } from '../disease-routes/records.responses';

@Public()
@CachedResponse('public')
@ApiTags('MPOX (public)')
@ApiCommonErrors()
@Controller('mpox/public')
export class MpoxPublicController {
  constructor(@InjectDisease(RecordsService, 'mpox') private readonly records: RecordsService) {}

  @Get('summary')
  @Header('Content-Type', JSON_TYPE)
  @ApiOperation({
    summary:
      'MPOX totals (sums of each country’s latest record), countries, last date and top 5 countries',
  })
  @ApiOkResponse({ description: 'The summary', type: DiseaseSummaryResponse })
  summary(): Promise<CachedValue<string>> {
    return this.records.publicJson('summary');
  }
}
