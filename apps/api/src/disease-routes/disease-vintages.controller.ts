import { Query, Req, Res, StreamableFile, Type } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ListFormat, MAX_VINTAGES_LIMIT, DiseaseDefinition, VintagesService } from '@app/diseases';
import { InjectDisease } from '@app/common';
import { ListFormatParam } from '../list-routes/list-route.decorator';
import { listReply, pageReply } from '../list-routes/list-reply';
import { VintagesQueryDto } from './dto/vintages-query.dto';
import { DiseaseListRoute } from './disease-list-route.decorator';
import { VintagesPageResponse } from './records.responses';

/** The filters a next page repeats, in order (then `after`). */
const VINTAGES_LINK_PARAMETERS = [
  'country',
  'from',
  'to',
  'fields',
  'issued_since',
  'issued_until',
  'limit',
  'format',
] as const;

/**
 * `GET <key>/vintages` under the prefix its controller declares (`CovidVintagesController`,
 * `MpoxVintagesController`): every version of every stored figure, with the rights of
 * `<key>/data` (docs/vintages.md). COVID and MPOX share it.
 */
export function DiseaseVintagesController(definition: DiseaseDefinition): Type<object> {
  class VintagesController {
    constructor(
      @InjectDisease(VintagesService, definition.key) private readonly vintages: VintagesService,
    ) {}

    @DiseaseListRoute({
      scope: `${definition.key}:read`,
      cache: 'etag',
      summary: `Every version of every ${definition.label} figure`,
      description:
        'One row per version of each stored figure (total_cases, new_cases, total_deaths, ' +
        'new_deaths), the first published one included: its value (null for a deletion), ' +
        '`issued_at` (when the service stored it) and `lag` (whole days from the date to ' +
        '`issued_at`). By place, date, figure, then as issued; `from`/`to` filter the ' +
        "figures' dates, `issued_since`/`issued_until` the moment issued. JSON " +
        '(`{vintages, next}`), CSV or NDJSON (`next` in the `Link` header); CSV and NDJSON ' +
        'without `limit`: every version, streamed. docs/vintages.md',
      ok: { description: 'A page of versions', type: VintagesPageResponse },
      badRequest: {
        description: 'Malformed query parameter',
        details: [`limit : doit être un entier de 1 à ${MAX_VINTAGES_LIMIT}`],
      },
    })
    async list(
      @Query() query: VintagesQueryDto,
      @ListFormatParam() format: ListFormat,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<string | StreamableFile> {
      // A download (CSV, NDJSON) without `limit` is the whole list, as the other lists'.
      if (format !== 'json' && query.limit === undefined) {
        const chunks = this.vintages.whole(query, format);
        return listReply({ kind: 'stream', chunks }, format, request, reply, {
          query: { ...query },
          filename: `${definition.key}-vintages`,
        }) as StreamableFile;
      }
      const page = await this.vintages.list(query, format);
      return pageReply(page, format, request, reply, {
        query: { ...query },
        names: VINTAGES_LINK_PARAMETERS,
        filename: `${definition.key}-vintages`,
      });
    }
  }
  return VintagesController;
}
