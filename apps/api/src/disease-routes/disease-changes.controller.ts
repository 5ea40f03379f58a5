import { Query, Req, Res, StreamableFile, Type } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ListFormat, MAX_FEED_LIMIT, DiseaseDefinition, RevisionsService } from '@app/diseases';
import { InjectDisease } from '@app/common';
import { ListFormatParam } from '../list-routes/list-route.decorator';
import { pageReply } from '../list-routes/list-reply';
import { ChangeFeedQueryDto } from './dto/change-feed-query.dto';
import { DiseaseListRoute } from './disease-list-route.decorator';
import { ChangeFeedResponse } from './records.responses';

/** What a next page of the feed repeats, in order (then `after`). */
const FEED_LINK_PARAMETERS = ['limit', 'format'] as const;

/**
 * The change feed of one disease, served at the `<key>/changes` prefix its controller declares
 * (`CovidChangesController`, `MpoxChangesController`): every change to its records in the order
 * the changes were committed, page by page (docs/history.md). COVID and MPOX share it.
 */
export function DiseaseChangesController(definition: DiseaseDefinition): Type<object> {
  class ChangesController {
    constructor(
      @InjectDisease(RevisionsService, definition.key) private readonly revisions: RevisionsService,
    ) {}

    @DiseaseListRoute({
      scope: `${definition.key}:read`,
      cache: 'etag',
      summary: `The change feed of ${definition.label} records`,
      description:
        'Every create, update and delete, in the order they were committed, as JSON ' +
        '(`{changes, next}`), CSV or NDJSON (one change per row or line, `next` in the `Link` ' +
        'header). Read it from the start (or `since` a time), then follow `next`; an empty page ' +
        'means nothing new yet: ask again later with the same `after`.',
      ok: { description: 'A page of changes', type: ChangeFeedResponse },
      badRequest: {
        description: 'Malformed query parameter',
        details: [`limit : doit être un entier de 1 à ${MAX_FEED_LIMIT}`],
      },
    })
    async changes(
      @Query() query: ChangeFeedQueryDto,
      @ListFormatParam() format: ListFormat,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<string | StreamableFile> {
      const page = await this.revisions.changes(query, format);
      return pageReply(page, format, request, reply, {
        query: { ...query },
        names: FEED_LINK_PARAMETERS,
        filename: `${definition.key}-changes`,
      });
    }
  }
  return ChangesController;
}
