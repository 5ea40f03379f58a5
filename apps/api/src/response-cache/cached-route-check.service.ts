import { Injectable, OnModuleInit, Type } from '@nestjs/common';
// Nest's metadata keys of a route's own enhancers, from Nest's own constants.
import {
  GUARDS_METADATA as GUARDS,
  INTERCEPTORS_METADATA as INTERCEPTORS,
  PIPES_METADATA as PIPES,
  ROUTE_ARGS_METADATA as ROUTE_ARGUMENTS,
} from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { HttpCacheInterceptor } from '../http-cache/http-cache.interceptor';
import { Handler, controllerMethods } from '../common/controller-methods';
import { KEEP_ANSWERS } from './response-cache';

/**
 * Refuses to start when a `@CachedResponse()` route has guards, interceptors (other than the
 * HTTP cache's own) or pipes of its own: its kept answers are served before Nest's router, where
 * only the global guards run, so they would be skipped silently.
 */
@Injectable()
export class CachedRouteCheck implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const problems = controllerMethods(this.discovery, this.scanner).flatMap(
      ({ classRef, name, handler }) => {
        if (this.reflector.getAllAndOverride<boolean>(KEEP_ANSWERS, [handler, classRef]) !== true) {
          return [];
        }
        return this.ownEnhancers(classRef, name, handler).map(
          (what) => `${classRef.name}.${name} has ${what}`,
        );
      },
    );
    if (problems.length > 0) {
      throw new Error(
        `@CachedResponse() routes are answered before Nest's router, where their own guards, ` +
          `interceptors and pipes would not run: ${problems.join('; ')}. Move them to the ` +
          `global guards, or use @HttpCache() instead.`,
      );
    }
  }

  private ownEnhancers(classRef: Type<unknown>, name: string, handler: Handler): string[] {
    const targets = [handler, classRef];
    const guards = this.reflector.getAllAndMerge<unknown[]>(GUARDS, targets);
    const interceptors = this.reflector
      .getAllAndMerge<unknown[]>(INTERCEPTORS, targets)
      .filter((interceptor) => interceptor !== HttpCacheInterceptor);
    const pipes = this.reflector.getAllAndMerge<unknown[]>(PIPES, targets);
    const argumentsMetadata = (Reflect.getMetadata(ROUTE_ARGUMENTS, classRef, name) ??
      {}) as Record<string, { pipes?: unknown[] }>;
    const parameterPipes = Object.values(argumentsMetadata).flatMap((arg) => arg.pipes ?? []);
    return [
      ...(guards.length > 0 ? ['guards'] : []),
      ...(interceptors.length > 0 ? ['interceptors'] : []),
      ...(pipes.length + parameterPipes.length > 0 ? ['pipes'] : []),
    ];
  }
}
