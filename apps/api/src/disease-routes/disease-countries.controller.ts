import { Get, Query, Res, Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { InjectDisease, MESSAGES } from '@app/common';
import { ListFormat, DiseaseDefinition, CountriesService } from '@app/diseases';
import { ApiBadRequest, ApiNotFound } from '../common/api-responses';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { RequireScope } from '../auth/require-scope.decorator';
import { ListFormatParam, ListRoute } from '../list-routes/list-route.decorator';
import { setListHeaders } from '../list-routes/list-reply';
import { StatsQueryDto } from './dto/stats-query.dto';
import { CountryListItemResponse, CountryStatsResponse } from './records.responses';

/**
 * The countries of one disease and one country's statistics, under the `<key>` prefix its
 * controller declares (`CovidCountriesController`, `MpoxCountriesController`); COVID and MPOX share
 * these handlers.
 */
export function DiseaseCountriesController(definition: DiseaseDefinition): Type<object> {
  // The OpenAPI operation ids these routes had when they shared the data controller: clients
  // generated from the document keep their method names.
  const operationId = (method: string) =>
    `${definition.key[0].toUpperCase()}${definition.key.slice(1)}DataController_${method}`;

  class CountriesController {
    constructor(
      @InjectDisease(CountriesService, definition.key) private readonly places: CountriesService,
    ) {}

    @Get('countries')
    @RequireScope(`${definition.key}:read`)
    @HttpCache('private')
    @ListRoute()
    @ApiOperation({
      summary: `Countries with ${definition.label} records, by name`,
      operationId: operationId('countries'),
    })
    @ApiOkResponse({
      description: 'One entry per country, with its ISO codes',
      type: [CountryListItemResponse],
    })
    async countries(
      @ListFormatParam() format: ListFormat,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<string> {
      const text = await this.places.countriesText(format);
      setListHeaders(reply, format);
      return text;
    }

    @Get('stats')
    @RequireScope(`${definition.key}:read`)
    @HttpCache('private')
    @ApiOperation({
      summary: `${definition.label} statistics of one country`,
      operationId: operationId('stats'),
    })
    @ApiOkResponse({ description: 'The statistics', type: CountryStatsResponse })
    @ApiBadRequest('Missing or invalid `country`', {
      error: MESSAGES.invalidQuery,
      details: ['country : champ obligatoire'],
    })
    @ApiNotFound(MESSAGES.countryNotFound)
    stats(@Query() { country }: StatsQueryDto): Promise<CountryStatsResponse> {
      return this.places.stats(country);
    }
  }
  return CountriesController;
}
