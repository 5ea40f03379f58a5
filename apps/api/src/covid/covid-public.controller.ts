import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MESSAGES } from '@app/common';
import { CachedValue, InjectSeries, SeriesService } from '@app/series';
import { Public } from '../auth/public.decorator';
import { CachedResponse } from '../response-cache/cached-response.decorator';
import { ApiBadRequest, ApiCommonErrors, ApiNotFound } from '../common/api-responses';
import { CountryParamDto } from '../common/country-param.dto';
import { JSON_TYPE } from '../common/json-content-type';
import { RecordResponse, TotalsResponse } from '../series/series.responses';

@Public()
@CachedResponse('public')
@ApiTags('COVID-19 (public)')
@ApiCommonErrors()
@Controller('covid/public')
export class CovidPublicController {
  constructor(@InjectSeries('covid') private readonly series: SeriesService) {}

  @Get('latest')
  @Header('Content-Type', JSON_TYPE)
  @ApiOperation({
    summary: 'The 10 most recent records over all countries (date, then id, descending)',
  })
  @ApiOkResponse({ description: 'At most 10 records', type: [RecordResponse] })
  latest(): Promise<CachedValue<string>> {
    return this.series.publicJson('latest');
  }

  @Get('country/:country')
  @Header('Content-Type', JSON_TYPE)
  @ApiOperation({
    summary:
      "One country's records within the 30 days ending at its most recent record, newest first",
  })
  @ApiOkResponse({ description: 'At most 30 daily records', type: [RecordResponse] })
  @ApiBadRequest('Invalid country name', {
    error: MESSAGES.invalidParam,
    details: ['country : doit contenir de 1 à 100 caractères'],
  })
  @ApiNotFound(MESSAGES.countryNotFound)
  country(@Param() { country }: CountryParamDto): Promise<CachedValue<string>> {
    return this.series.countryWindowJson(country);
  }

  @Get('totals')
  @Header('Content-Type', JSON_TYPE)
  @ApiOperation({ summary: "Worldwide totals: sums of each country's most recent record" })
  @ApiOkResponse({ description: 'Zeros when there is no record', type: TotalsResponse })
  totals(): Promise<CachedValue<string>> {
    return this.series.publicJson('totals');
  }
}
