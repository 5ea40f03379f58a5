import { Query, Req, Res, StreamableFile, Type } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import {
  ListFormat,
  MAX_CORRECTIONS_LIMIT,
  DiseaseDefinition,
  CorrectionsService,
} from '@app/diseases';
import { InjectDisease } from '@app/common';
import { ListFormatParam } from '../list-routes/list-route.decorator';
import { pageReply } from '../list-routes/list-reply';
import { CorrectionsQueryDto } from './dto/corrections-query.dto';
import { DiseaseListRoute } from './disease-list-route.decorator';
import { CorrectionsPageResponse } from './records.responses';

/** The filters a next page repeats, in order (then `after`). */
const CORRECTIONS_LINK_PARAMETERS = [
  'country',
  'from',
  'to',
  'since',
  'until',
  'limit',
  'format',
] as const;

/**
 * `GET <key>/corrections` under the prefix its controller declares (`CovidCorrectionsController`,
 * `MpoxCorrectionsController`): the figures that changed after they were first published, with
 * the rights of `<key>/data` (docs/corrections.md). COVID and MPOX share it.
 */
export function DiseaseCorrectionsController(definition: DiseaseDefinition): Type<object> {
  class CorrectionsController {
    constructor(
      @InjectDisease(CorrectionsService, definition.key)
      private readonly corrections: CorrectionsService,
    ) {}

    @DiseaseListRoute({
      scope: `${definition.key}:read`,
      cache: 'etag',
      summary: `Corrections of ${definition.label} figures`,
      description:
        'One row per stored figure (total_cases, new_cases, total_deaths, new_deaths) that ' +
        'changed after it was first published: `update`, `delete` (new is null) or `restore` ' +
        '(old is null), with its old and new values and where the change came from, in the ' +
        'order the changes were committed. `from`/`to` filter the figures’ dates, `since`/' +
        '`until` the moment of the change. JSON (`{corrections, next}`), CSV or NDJSON (`next` ' +
        'in the `Link` header). The first load of a record is not a correction.',
      ok: { description: 'A page of corrections', type: CorrectionsPageResponse },
      badRequest: {
        description: 'Malformed query parameter',
        details: [`limit : doit être un entier de 1 à ${MAX_CORRECTIONS_LIMIT}`],
      },
    })
    async list(
      @Query() query: CorrectionsQueryDto,
      @ListFormatParam() format: ListFormat,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<string | StreamableFile> {
      const page = await this.corrections.list(query, format);
      return pageReply(page, format, request, reply, {
        query: { ...query },
        names: CORRECTIONS_LINK_PARAMETERS,
        filename: `${definition.key}-corrections`,
      });
    }
  }
  return CorrectionsController;
}
