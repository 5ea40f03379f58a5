import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { IS_PUBLIC_KEY } from '@api/auth/public.decorator';
import { REQUIRED_SCOPES_KEY } from '@api/auth/require-scope.decorator';
import { API_PREFIX } from '@api/bootstrap';

export interface AppRoute {
  method: string;
  /** OpenAPI style: `/api/covid/data/{id}`. */
  path: string;
  isPublic: boolean;
  /** What `@RequireScope()` declares (method, else class); undefined when nothing. */
  scopes?: string[];
}

/** A route with the controller class that serves it and its handler (perhaps inherited). */
export interface DeclaredRoute extends AppRoute {
  controller: abstract new (...args: never[]) => unknown;
  handler: (...args: unknown[]) => unknown;
}

function methodsOf(prototype: object): Array<(...args: unknown[]) => unknown> {
  const handlers = new Set<(...args: unknown[]) => unknown>();
  for (let p = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object) {
    for (const name of Object.getOwnPropertyNames(p)) {
      const value = Object.getOwnPropertyDescriptor(p, name)?.value as unknown;
      if (name !== 'constructor' && typeof value === 'function') {
        handlers.add(value as (...args: unknown[]) => unknown);
      }
    }
  }
  return [...handlers];
}

const joinPath = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
    .join('/');

/** Every route the application's controllers declare, read from Nest's own metadata. */
export function appRoutes(app: INestApplication): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new () => object) | null;
      if (!controller) continue;
      const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
      const classPublic = Reflect.getMetadata(IS_PUBLIC_KEY, controller) === true;
      for (const handler of methodsOf(controller.prototype)) {
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        routes.push({
          method: RequestMethod[method].toLowerCase(),
          path: joinPath(API_PREFIX, base, path),
          isPublic: classPublic || Reflect.getMetadata(IS_PUBLIC_KEY, handler) === true,
          scopes: (Reflect.getMetadata(REQUIRED_SCOPES_KEY, handler) ??
            Reflect.getMetadata(REQUIRED_SCOPES_KEY, controller)) as string[] | undefined,
          controller,
          handler,
        });
      }
    }
  }
  return routes;
}
