import { Query, Req, Res, StreamableFile, Type } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { InjectDisease, todayUtc } from '@app/common';
import { CachedValue, ListFormat, DiseaseDefinition, DerivedFiguresService } from '@app/diseases';
import { ListFormatParam } from '../list-routes/list-route.decorator';
import { listReply } from '../list-routes/list-reply';
import { SeriesQueryDto } from './dto/series-query.dto';
import { SeriesRowResponse } from './derived-figures.responses';
import { DiseaseListRoute } from './disease-list-route.decorator';

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
  'lag',
] as const;

/**
 * `GET <key>/series` under the prefix its controller declares (`CovidSeriesController`,
 * `MpoxSeriesController`): the derived series, with the rights of `<key>/data`.
 */
export function DiseaseSeriesController(definition: DiseaseDefinition): Type<object> {
  class SeriesController {
    constructor(
      @InjectDisease(DerivedFiguresService, definition.key)
      private readonly figures: DerivedFiguresService,
    ) {}

    @DiseaseListRoute({
      scope: `${definition.key}:read`,
      cache: 'memory',
      summary: `${definition.label} series with per-million figures and 7-day averages`,
      description:
        "One row per place and date (or ISO week), dates ascending, with Our World in Data's " +
        'metrics (docs/derived-figures.md): a country, a region (its rows count the countries reporting) ' +
        'or, without `country`, every place by place then date in cursor pages (`Link`), as ' +
        'JSON, CSV or NDJSON. Days without a record are absent; negative days are kept as published.',
      ok: { description: 'The rows', type: [SeriesRowResponse] },
      badRequest: {
        description: 'Malformed or unknown parameter (metric, region, period, from after to)',
        details: ['metrics : indicateur inconnu : cases_per_capita'],
      },
    })
    async list(
      @Query() query: SeriesQueryDto,
      @ListFormatParam() format: ListFormat,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<CachedValue<string> | string | StreamableFile> {
      const body = await this.figures.series(query, format);
      return listReply(body, format, request, reply, {
        query: { ...query },
        names: SERIES_LINK_PARAMETERS,
        filename: `${definition.key}-series-${todayUtc()}`,
      });
    }
  }
  return SeriesController;
}
