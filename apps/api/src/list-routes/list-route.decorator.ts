import {
  ExecutionContext,
  SetMetadata,
  applyDecorators,
  createParamDecorator,
} from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { FastifyRequest } from 'fastify';
import { LIST_FORMATS, ListFormat } from '@app/diseases';
import { requestedFormat } from './format-negotiation';

/** Metadata key of `@ListRoute()`: the route's answer depends on `Accept` (`Vary: Accept`). */
export const NEGOTIATES_FORMAT = 'negotiatesListFormat';

/**
 * The list format a request asks for (`format`, else `Accept`; see `requestedFormat`): an
 * unknown `format` is a 400 before the handler runs. No pipe: fit for `@CachedResponse()` routes.
 */
export const ListFormatParam = createParamDecorator(
  (_: unknown, context: ExecutionContext): ListFormat => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return requestedFormat(request.query as Record<string, unknown>, request.headers.accept);
  },
);

const FORMAT_DESCRIPTION =
  'json (the default), csv (RFC 4180, a header row naming the JSON keys in order) or ndjson ' +
  '(one JSON object per line); wins over `Accept` (`text/csv`, `application/x-ndjson`)';

/**
 * A GET route that answers a list in JSON, CSV or NDJSON: marks its answers as depending on
 * `Accept` (the HTTP cache adds `Vary: Accept`), and documents `format` unless the route's query
 * DTO declares it (`inQuery: false`). The other content types and headers are added to the
 * OpenAPI document for every operation with a `format` parameter (`api-docs.ts`).
 */
export const ListRoute = (options: { inQuery?: boolean } = {}): MethodDecorator =>
  applyDecorators(
    SetMetadata(NEGOTIATES_FORMAT, true),
    ...(options.inQuery === false
      ? []
      : [
          ApiQuery({
            name: 'format',
            required: false,
            enum: LIST_FORMATS,
            description: FORMAT_DESCRIPTION,
          }),
        ]),
  );

export { FORMAT_DESCRIPTION };
