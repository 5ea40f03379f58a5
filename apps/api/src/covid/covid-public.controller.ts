import { Controller, Get, Header, Param, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDisease, MESSAGES } from '@app/common';
import { CachedValue, ListFormat, RecordsService, parseAsOf } from '@app/diseases';
import { Public } from '../auth/public.decorator';
import { CachedResponse } from '../response-cache/cached-response.decorator';
import { ApiBadRequest, ApiCommonErrors, ApiNotFound } from '../common/api-responses';
import { CountryParamDto } from '../common/country-param.dto';
import { setAsOfCacheControl } from '../http-cache/http-cache-policy';
import { AsOfQueryDto } from '../disease-routes/dto/as-of-query.dto';
import { JSON_TYPE } from '../common/json-content-type';
import { ListFormatParam, ListRoute } from '../list-routes/list-route.decorator';
import { setListHeaders } from '../list-routes/list-reply';
import { RecordResponse, TotalsResponse } from '../disease-routes/records.responses';

@Public()
@CachedResponse('public')
@ApiTags('COVID-19 (public)')
@ApiCommonErrors()
@Controller('covid/public')
export class CovidPublicController {
  constructor(@InjectDisease(RecordsService, 'covid') private readonly records: RecordsService) {}

  @Get('latest')
  @ListRoute()
  @ApiOperation({
    summary: 'The 10 most recent records over all countries (date, then id, descending)',
  })
  @ApiOkResponse({ description: 'At most 10 records', type: [RecordResponse] })
  async latest(
    @ListFormatParam() format: ListFormat,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CachedValue<string>> {
    const answer = await this.records.latestList(format);
    setListHeaders(reply, format);
    return answer;
  }

  @Get('country/:country')
  @ListRoute()
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
  async country(
    @Param() { country }: CountryParamDto,
    @Query() { as_of }: AsOfQueryDto,
    @ListFormatParam() format: ListFormat,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CachedValue<string>> {
    const answer = await this.records.countryWindowList(country, format, as_of);
    setListHeaders(reply, format);
    if (as_of !== undefined) setAsOfCacheControl(reply, Number(parseAsOf(as_of)));
    return answer;
  }

  @Get('totals')
  @Header('Content-Type', JSON_TYPE)
  @ApiOperation({ summary: "Worldwide totals: sums of each country's most recent record" })
  @ApiOkResponse({ description: 'Zeros when there is no record', type: TotalsResponse })
  totals(): Promise<CachedValue<string>> {
    return this.records.publicJson('totals');
  }
}
