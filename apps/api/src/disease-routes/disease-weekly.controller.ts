import { Get, Header, Param, Query, Res, Type } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { InjectDisease, MESSAGES } from '@app/common';
import {
  CachedValue,
  ListFormat,
  DiseaseDefinition,
  CorrectionsService,
  CountriesService,
  DerivedFiguresService,
  WeeklyService,
} from '@app/diseases';
import { ApiBadRequest, ApiNotFound } from '../common/api-responses';
import { CountryParamDto } from '../common/country-param.dto';
import { JSON_TYPE } from '../common/json-content-type';
import { ListFormatParam, ListRoute } from '../list-routes/list-route.decorator';
import { setListHeaders } from '../list-routes/list-reply';
import {
  CountryCorrectionsResponse,
  CountryLatestResponse,
  WeeklyAnswerResponse,
} from './records.responses';
import { PublicCorrectionsQueryDto } from './dto/corrections-query.dto';
import { MapQueryDto } from './dto/map-query.dto';
import { MapResponse } from './derived-figures.responses';

/**
 * The public weekly answers of one disease, and beside them what the dashboard's map, country
 * page and country picker read: `weekly`, `country/:country/weekly`, `country/:country/corrections`,
 * `map` and `countries` under the `<key>/public` prefix its
 * controller declares (`CovidWeeklyController`, `MpoxWeeklyController`, with `@Public()` and
 * `@CachedResponse('public')`): COVID and MPOX share these handlers. Daily records stay behind a
 * token.
 */
export function DiseaseWeeklyController(definition: DiseaseDefinition): Type<object> {
  // The OpenAPI operation ids these routes had when their controllers were named for a history
  // (a word the glossary now keeps for revisions):
  // clients generated from the document keep their method names.
  const operationId = (method: string) =>
    `${definition.key[0].toUpperCase()}${definition.key.slice(1)}HistoryController_${method}`;

  class WeeklyController {
    constructor(
      @InjectDisease(WeeklyService, definition.key) private readonly weekly: WeeklyService,
      @InjectDisease(CorrectionsService, definition.key)
      private readonly correctionsService: CorrectionsService,
      @InjectDisease(DerivedFiguresService, definition.key)
      private readonly figures: DerivedFiguresService,
      @InjectDisease(CountriesService, definition.key) private readonly places: CountriesService,
    ) {}

    @Get('weekly')
    @Header('Content-Type', JSON_TYPE)
    @ApiOperation({
      summary: `The world's ${definition.label} weekly answer (columnar arrays)`,
      operationId: operationId('world'),
      description:
        'Each day summed over the countries with a record that day, then by ISO week: new cases ' +
        "and deaths summed, totals of the week's last day with records. `country` is null.",
    })
    @ApiOkResponse({
      description: 'Empty arrays when there is no record',
      type: WeeklyAnswerResponse,
    })
    world(): Promise<CachedValue<string>> {
      return this.weekly.worldJson();
    }

    @Get('country/:country/weekly')
    @Header('Content-Type', JSON_TYPE)
    @ApiOperation({
      summary: `One country's ${definition.label} weekly answer (columnar arrays)`,
      operationId: operationId('country'),
      description:
        'By ISO week (Monday to Sunday, named by its Sunday), oldest first: new cases and deaths ' +
        "summed, totals of the week's last record; `days` counts the week's records.",
    })
    @ApiOkResponse({ description: 'Every week with records', type: WeeklyAnswerResponse })
    @ApiBadRequest('Invalid country name', {
      error: MESSAGES.invalidParam,
      details: ['country : doit contenir de 1 à 100 caractères'],
    })
    @ApiNotFound(MESSAGES.countryNotFound)
    country(@Param() { country }: CountryParamDto): Promise<CachedValue<string>> {
      return this.weekly.countryJson(country);
    }

    @Get('country/:country/corrections')
    @Header('Content-Type', JSON_TYPE)
    @ApiOperation({
      summary: `One country's latest ${definition.label} corrections`,
      description:
        'Stored figures that changed after they were first published (docs/corrections.md), ' +
        'latest change first: the figure, its old and new values, the kind of change. Without ' +
        'their source, which names API clients: `/corrections` (token) has it.',
    })
    @ApiOkResponse({ description: 'The latest corrections', type: CountryCorrectionsResponse })
    @ApiBadRequest('Invalid country name or limit', {
      error: MESSAGES.invalidQuery,
      details: ['limit : doit être un entier de 1 à 100'],
    })
    @ApiNotFound(MESSAGES.countryNotFound)
    corrections(
      @Param() { country }: CountryParamDto,
      @Query() { limit }: PublicCorrectionsQueryDto,
    ): Promise<CachedValue<string>> {
      return this.correctionsService.publicJson(country, limit);
    }

    @Get('map')
    @Header('Content-Type', JSON_TYPE)
    @ApiOperation({
      summary: `Every country's latest value of one ${definition.label} metric at or before a date or week (the map)`,
      operationId: operationId('map'),
      description:
        "Each country's latest value at or before a day (`date`) or ISO week (`week`: any date " +
        'of it; `period=week` figures, dated by its Sunday), with its own `date`; without ' +
        'either, the latest date with a record. Places that are not countries are left out. ' +
        'Metrics as `/series` (docs/derived-figures.md).',
    })
    @ApiOkResponse({ description: 'The values, countries by name', type: MapResponse })
    @ApiBadRequest('Unknown metric, malformed date, or both date and week', {
      error: MESSAGES.invalidQuery,
      details: ['week : ne peut pas être combiné avec date'],
    })
    map(@Query() query: MapQueryDto): Promise<CachedValue<string>> {
      return this.figures.mapJson(query);
    }

    @Get('countries')
    @ListRoute()
    @ApiOperation({
      summary: `Each country's most recent ${definition.label} totals (public list, by name)`,
      operationId: operationId('countries'),
    })
    @ApiOkResponse({ description: 'One entry per country', type: [CountryLatestResponse] })
    async countries(
      @ListFormatParam() format: ListFormat,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<CachedValue<string>> {
      const answer = await this.places.countriesList(format);
      setListHeaders(reply, format);
      return answer;
    }
  }
  return WeeklyController;
}
