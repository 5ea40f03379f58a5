import { Get, Type, applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { MESSAGES } from '@app/common';
import { Scope } from '@app/config';
import { ApiBadRequest } from '../common/api-responses';
import { RequireScope } from '../auth/require-scope.decorator';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { ListRoute } from '../list-routes/list-route.decorator';
import { CachedResponse } from '../response-cache/cached-response.decorator';

/** What a disease's list route declares (`DiseaseListRoute`). */
export interface DiseaseListRouteOptions {
  /** The disease's read scope. */
  scope: Scope;
  /**
   * `memory`: small answers are given again from memory after the guards while the read cache
   * holds them (`@CachedResponse`); `etag`: each answer is built, `If-None-Match` answered 304.
   */
  cache: 'memory' | 'etag';
  summary: string;
  description: string;
  ok: { description: string; type: Type<unknown> | [Type<unknown>] };
  /** The 400's description, and an example of its `details`. */
  badRequest: { description: string; details: string[] };
}

/**
 * `GET` of one of a disease's lists (records, series, change feed, corrections): its scope, its
 * caching, its formats (`format` is in the query DTO) and its OpenAPI operation, in one place.
 */
export const DiseaseListRoute = (options: DiseaseListRouteOptions): MethodDecorator =>
  applyDecorators(
    Get(),
    RequireScope(options.scope),
    options.cache === 'memory' ? CachedResponse('private') : HttpCache('private'),
    ListRoute({ inQuery: false }),
    ApiOperation({ summary: options.summary, description: options.description }),
    ApiOkResponse(options.ok),
    ApiBadRequest(options.badRequest.description, {
      error: MESSAGES.invalidQuery,
      details: options.badRequest.details,
    }),
  );
