import { Get, Query, Req, Res, Type } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@app/common';
import {
  InjectSeries,
  ListFormat,
  MAX_FEED_LIMIT,
  SeriesDefinition,
  SeriesService,
} from '@app/series';
import { ApiBadRequest } from '../common/api-responses';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { RequireScope } from '../auth/require-scope.decorator';
import { ListFormatParam, ListRoute } from '../list-routes/list-route.decorator';
import { setListHeaders } from '../list-routes/list-reply';
import { ChangeFeedQueryDto } from './dto/change-feed-query.dto';
import { ChangeFeedResponse } from './series.responses';

/**
 * The change feed of one disease, served at the `<key>/changes` prefix its controller declares
 * (`CovidChangesController`, `MpoxChangesController`): every change to its records in the order
 * the changes were committed, page by page (docs/history.md). COVID and MPOX share it.
 */
export function SeriesChangesController(definition: SeriesDefinition): Type<object> {
  class ChangesController {
    constructor(@InjectSeries(definition.key) readonly series: SeriesService) {}

    @Get()
    @RequireScope(`${definition.key}:read`)
    @HttpCache('private')
    @ListRoute({ inQuery: false })
    @ApiOperation({
      summary: `The change feed of ${definition.label} records`,
      description:
        'Every create, update and delete, in the order they were committed, as JSON ' +
        '(`{changes, next}`), CSV or NDJSON (one change per row or line, `next` in the `Link` ' +
        'header). Read it from the start (or `since` a time), then follow `next`; an empty page ' +
        'means nothing new yet: ask again later with the same `after`.',
    })
    @ApiOkResponse({ description: 'A page of changes', type: ChangeFeedResponse })
    @ApiBadRequest('Malformed query parameter', {
      error: MESSAGES.invalidQuery,
      details: [`limit : doit être un entier de 1 à ${MAX_FEED_LIMIT}`],
    })
    async changes(
      @Query() query: ChangeFeedQueryDto,
      @ListFormatParam() format: ListFormat,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<string> {
      const page = await this.series.changes(query, format);
      setListHeaders(reply, format, { filename: `${definition.key}-changes` });
      if (page.next !== null) setFeedLink(reply, request.url, query, page.next);
      return page.text;
    }
  }
  return ChangesController;
}

/** `Link: <…>; rel="next"`: the same `limit` and `format`, `after` the page's last cursor. */
function setFeedLink(
  reply: FastifyReply,
  url: string,
  query: ChangeFeedQueryDto,
  after: string,
): void {
  const path = url.split('?', 1)[0];
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.format !== undefined) params.set('format', query.format);
  params.set('after', after);
  void reply.header('link', `<${path}?${params.toString()}>; rel="next"`);
}
