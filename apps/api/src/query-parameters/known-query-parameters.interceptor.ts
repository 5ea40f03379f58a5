import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
// Nest's metadata key of a handler's parameters and their kinds, from Nest's own files.
import { ROUTE_ARGS_METADATA as ROUTE_ARGUMENTS } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { ApiError, MESSAGES, problemMessage } from '@app/common';
import { NEGOTIATES_FORMAT } from '../list-routes/list-route.decorator';
import { RouteMemo } from '../route-metadata/route-memo';

/** A cache buster (`_=1700000000000`, as jQuery and dashboards add it): accepted everywhere. */
export const CACHE_BUSTER = '_';

/** Names as long as a body's unknown field is cut to in its refusal. */
const MAX_NAME_LENGTH = 100;

/**
 * Refuses a request whose query string names a parameter its route does not read (decision
 * 0049): a 400 naming each, before the handler, after the guards (401, 403, 429 first). What a
 * route reads is worked out once from its handler's parameters: the properties its `@Query()`
 * DTO validates, a `@Query('name')`, `format` on a `@ListRoute()`; the cache buster is always
 * accepted. Answers served from memory before Nest's router passed here when they were kept.
 */
@Injectable()
export class KnownQueryParametersInterceptor implements NestInterceptor {
  private readonly known = new RouteMemo<ReadonlySet<string>>((handler, classRef) =>
    this.parametersOf(handler, classRef),
  );

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const query = context.switchToHttp().getRequest<FastifyRequest>().query;
    if (query !== null && typeof query === 'object') {
      const names = Object.keys(query);
      if (names.length > 0) {
        const known = this.known.get(context);
        // An empty name (`?=x`, `&=`) names nothing: left alone, as a stray `&` is.
        const unknown = names.filter((name) => name !== '' && !known.has(name));
        if (unknown.length > 0) {
          throw ApiError.badRequest(
            MESSAGES.invalidQuery,
            unknown.map((name) =>
              problemMessage({
                field: name.slice(0, MAX_NAME_LENGTH),
                problem: 'unknown-parameter',
              }),
            ),
          );
        }
      }
    }
    return next.handle();
  }

  private parametersOf(
    handler: (...args: never[]) => unknown,
    classRef: abstract new (...args: never[]) => unknown,
  ): ReadonlySet<string> {
    const names = new Set<string>([CACHE_BUSTER]);
    if (this.reflector.getAllAndOverride<boolean>(NEGOTIATES_FORMAT, [handler, classRef])) {
      names.add('format');
    }
    const parameters = (Reflect.getMetadata(ROUTE_ARGUMENTS, classRef, handler.name) ??
      {}) as Record<string, { index: number; data?: unknown }>;
    const prototype = classRef.prototype as object;
    const types = (Reflect.getMetadata('design:paramtypes', prototype, handler.name) ??
      []) as unknown[];
    for (const [key, { index, data }] of Object.entries(parameters)) {
      if (Number(key.split(':')[0]) !== (RouteParamtypes.QUERY as number)) continue;
      if (typeof data === 'string') {
        names.add(data);
        continue;
      }
      const dto = types[index];
      if (typeof dto !== 'function') continue;
      // What the validation pipe keeps (`whitelist`): the properties with a rule.
      for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
        names.add(rule.propertyName);
      }
    }
    return names;
  }
}
