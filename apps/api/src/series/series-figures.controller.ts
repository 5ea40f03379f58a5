import { Get, Query, Req, Res, StreamableFile, Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, todayUtc } from '@app/common';
import {
  CachedValue,
  InjectSeries,
  ListFormat,
  SeriesDefinition,
  SeriesService,
} from '@app/series';
import { RequireScope } from '../auth/require-scope.decorator';
import { ApiBadRequest } from '../common/api-responses';
import { ListFormatParam, ListRoute } from '../list-routes/list-route.decorator';
import { listReply } from '../list-routes/list-reply';
import { CachedResponse } from '../response-cache/cached-response.decorator';
import { SeriesQueryDto } from './dto/series-query.dto';
import { SeriesRowResponse } from './figures.responses';

/** The parameters a series' next page repeats, in order. */
const SERIES_LINK_PARAMETERS = [
  'country',
  'from',
  'to',
  'metrics',
  'period',
  'limit',
  'format',
  'as_of',
] as const;

/**
 * `GET <key>/series` under the prefix its controller declares (`CovidSeriesController`,
 * `MpoxSeriesController`): the derived series, with the rights of `<key>/data`.
 */
export function SeriesFiguresController(definition: SeriesDefinition): Type<object> {
  class FiguresController {
    constructor(@InjectSeries(definition.key) readonly series: SeriesService) {}

    @Get()
    @RequireScope(`${definition.key}:read`)
    @CachedResponse('private')
    @ListRoute({ inQuery: false })
    @ApiOperation({
      summary: `${definition.label} series with per-million figures and 7-day averages`,
      description:
        "One row per place and date (or ISO week), dates ascending, with Our World in Data's " +
        'metrics (docs/figures.md): a country, a region (its rows count the countries reporting) ' +
        'or, without `country`, every place by place then date in cursor pages (`Link`), as ' +
        'JSON, CSV or NDJSON. Days without a record are absent; negative days are kept as published.',
    })
    @ApiOkResponse({ description: 'The rows', type: [SeriesRowResponse] })
    @ApiBadRequest('Malformed or unknown parameter (metric, region, period, from after to)', {
      error: MESSAGES.invalidQuery,
      details: ['metrics : indicateur inconnu : cases_per_capita'],
    })
    async list(
      @Query() query: SeriesQueryDto,
      @ListFormatParam() format: ListFormat,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<CachedValue<string> | string | StreamableFile> {
      const body = await this.series.series(query, format);
      return listReply(body, format, request, reply, {
        query: { ...query },
        names: SERIES_LINK_PARAMETERS,
        filename: `${definition.key}-series-${todayUtc()}`,
      });
    }
  }
  return FiguresController;
}
