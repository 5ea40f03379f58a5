/**
 * `docs/api.md`, "Every route": the table lists each route of the application once, with the
 * scope, the cache policy and the file of the controller that serves it, as the code declares them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HEADERS_METADATA } from '@nestjs/common/constants';
import { HTTP_CACHE_SCOPE } from '@api/http-cache/http-cache-policy';
import { KEEP_ANSWERS } from '@api/response-cache/response-cache';
import { DeclaredRoute, appRoutes } from '../../support/app-routes';
import { TestApp, bootTestApp } from '../../support/test-app';

const ROOT = join(__dirname, '../../..');
const SOURCES = join(ROOT, 'apps/api/src');

interface TableRow {
  method: string;
  paths: string[];
  scope: string;
  cache: string;
  file: string;
}

/** The rows of the table under `## Every route`, cells without their backquotes. */
function documentedRoutes(): TableRow[] {
  const text = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  const section = text.split(/^## Every route$/m)[1].split(/^## /m)[0];
  return section
    .split('\n')
    .filter((line) => /^\| [A-Z]+ \|/.test(line))
    .map((line) => {
      const [method, paths, scope, cache, file] = line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim());
      const plain = (cell: string) => cell.replace(/`/g, '');
      return {
        method,
        paths: plain(paths).split(', '),
        scope: plain(scope),
        cache: plain(cache),
        file: plain(file),
      };
    });
}

/** Metadata of the route's handler, else of its controller (as Nest's `Reflector` overrides). */
const declared = <T>(route: DeclaredRoute, key: string): T | undefined =>
  (Reflect.getMetadata(key, route.handler) ?? Reflect.getMetadata(key, route.controller)) as
    T | undefined;

/** The cache policy as the table writes it: the decorator, or the `Cache-Control` header set. */
function cachePolicy(route: DeclaredRoute): string {
  const scope = declared<string>(route, HTTP_CACHE_SCOPE);
  if (scope !== undefined) {
    const decorator = declared<boolean>(route, KEEP_ANSWERS) ? 'CachedResponse' : 'HttpCache';
    return `@${decorator}('${scope}')`;
  }
  const headers = declared<Array<{ name: string; value: string }>>(route, HEADERS_METADATA) ?? [];
  const cacheControl = headers.find(({ name }) => name.toLowerCase() === 'cache-control');
  return cacheControl ? `Cache-Control: ${cacheControl.value}` : 'none';
}

/** The file under `apps/api/src` that declares each controller class, by class name. */
function controllerFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of readdirSync(SOURCES, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.controller.ts')) continue;
    const source = readFileSync(join(SOURCES, file), 'utf8');
    for (const [, name] of source.matchAll(/^export class (\w+)/gm)) files.set(name, file);
  }
  return files;
}

describe('docs/api.md, every route', () => {
  let t: TestApp;
  let routes: DeclaredRoute[];

  beforeAll(async () => {
    t = await bootTestApp();
    routes = appRoutes(t.app);
  });
  afterAll(() => t.close());

  it('lists each route of a controller once, with its scope, cache policy and file', () => {
    const files = controllerFiles();
    const byRoute = (a: { route: string }, b: { route: string }) => a.route.localeCompare(b.route);
    const documented = documentedRoutes()
      .filter((row) => row.file.endsWith('.controller.ts'))
      .flatMap(({ method, paths, scope, cache, file }) =>
        paths.map((path) => ({
          route: `${method} ${path.replace(/:(\w+)/g, '{$1}')}`,
          scope,
          cache,
          file,
        })),
      );
    const actual = routes.map((route) => ({
      route: `${route.method.toUpperCase()} ${route.path}`,
      scope: route.isPublic ? 'public' : (route.scopes ?? []).join(', '),
      cache: cachePolicy(route),
      file: files.get(route.controller.name),
    }));
    expect(documented.sort(byRoute)).toEqual(actual.sort(byRoute));
  });

  it('names files that exist, the routes outside controllers included', () => {
    for (const row of documentedRoutes()) {
      expect(() => readFileSync(join(SOURCES, row.file))).not.toThrow();
    }
  });
});
