import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { resolveCountry } from '@app/countries';
import { PopulationRepository } from '@app/database';
import { ListColumns, ListFormat, listText } from '@app/diseases';
import { Public } from '../auth/public.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { ListFormatParam, ListRoute } from '../list-routes/list-route.decorator';
import { setListHeaders } from '../list-routes/list-reply';
import { PopulationResponse } from './population-regions.responses';

const COLUMNS: ListColumns<PopulationResponse> = [
  'country',
  'iso3',
  'iso2',
  'year',
  'population',
  'source',
];

/** `GET /population` (public: population is public data), the table the per-million figures use. */
@Public()
@ApiTags('Population and regions (public)')
@ApiCommonErrors()
@Controller('population')
export class PopulationController {
  constructor(private readonly population: PopulationRepository) {}

  @Get()
  @HttpCache('public')
  @ListRoute()
  @ApiOperation({
    summary: 'The population table: every country and year (`import population`)',
    description:
      'By ISO alpha-3 code then year. A per-million figure uses the population of its own year, else of the ' +
      'nearest year (docs/derived-figures.md).',
  })
  @ApiOkResponse({
    description: 'Every row (empty before a table is imported)',
    type: [PopulationResponse],
  })
  async list(
    @ListFormatParam() format: ListFormat,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const rows = (await this.population.all()).map(
      ({ country, iso3, year, population, source }) => ({
        country,
        iso3,
        iso2: resolveCountry(iso3)?.iso2 ?? null,
        year,
        population,
        source,
      }),
    );
    setListHeaders(reply, format);
    return listText(format, COLUMNS, rows);
  }
}
