import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MESSAGES } from '@app/common';
import { JSON_TYPE } from '../common/json-content-type';
import { DASHBOARD_ASSETS_PATH, DASHBOARD_PATH } from './dashboard-paths';
import { countryNames } from './country-names';
import { worldShapes } from './world-shapes';

/**
 * The pages' folder: `apps/dashboard/public` beside the sources, and the same relative place in
 * `dist/` (nest-cli.json copies it there at build time).
 */
const PAGES_DIR = join(__dirname, '..', '..', '..', 'dashboard', 'public');

interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};
const PAGE = 'index.html';

const extensionOf = (file: string) => file.slice(file.lastIndexOf('.'));

function asset(file: string): Asset {
  return { type: TYPES[extensionOf(file)], body: readFileSync(file) };
}

/** Browser builds served from installed packages (no CDN): the package, and its files. */
const PACKAGE_FILES: [string, string[]][] = [
  ['uplot', ['uPlot.iife.min.js', 'uPlot.min.css']],
  // The map's: d3-geo (projection and paths) needs d3-array; topojson-client reads the outlines.
  ['d3-array', ['d3-array.min.js']],
  ['d3-geo', ['d3-geo.min.js']],
  ['topojson-client', ['topojson-client.min.js']],
];

/**
 * Every file the dashboard serves, read once at start-up: the page, its modules, style and icon
 * (the pages' folder's files of a known type), the browser builds of uPlot and of the map's
 * libraries from their installed packages, the map's outlines (`world-shapes.json`) and the
 * countries' French names (`country-names.json`). A list
 * fixed at start-up, so that no request path ever reaches the file system.
 */
export function dashboardAssets(): { page: Asset; assets: Map<string, Asset> } {
  const assets = new Map<string, Asset>();
  for (const file of readdirSync(PAGES_DIR).sort()) {
    if (file !== PAGE && TYPES[extensionOf(file)]) assets.set(file, asset(join(PAGES_DIR, file)));
  }
  for (const [name, files] of PACKAGE_FILES) {
    // Each package's main file sits in the folder of its browser builds.
    const folder = dirname(require.resolve(name));
    for (const file of files) assets.set(file, asset(join(folder, file)));
  }
  assets.set('world-shapes.json', { type: TYPES['.json'], body: worldShapes() });
  assets.set('country-names.json', { type: TYPES['.json'], body: countryNames() });
  return { page: asset(join(PAGES_DIR, PAGE)), assets };
}

/**
 * `/` redirects to `/dashboard` (the page; its views are chosen by the URL's fragment), assets
 * under `/dashboard/assets/`. Plain Fastify routes outside the API's prefix, so that they are not
 * API endpoints (nor in the OpenAPI document). Revalidated on each visit: `no-cache`.
 */
export function serveDashboard(app: NestFastifyApplication): void {
  const { page, assets } = dashboardAssets();
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/', (_request, reply) => {
    void reply.redirect(DASHBOARD_PATH, 302);
  });
  fastify.get(DASHBOARD_PATH, (_request, reply) => {
    void reply.header('cache-control', 'no-cache').type(page.type).send(page.body);
  });
  fastify.get<{ Params: { file: string } }>(`${DASHBOARD_ASSETS_PATH}/:file`, (request, reply) => {
    const found = assets.get(request.params.file);
    if (!found) {
      void reply.code(404).type(JSON_TYPE).send({ error: MESSAGES.routeNotFound });
      return;
    }
    void reply.header('cache-control', 'no-cache').type(found.type).send(found.body);
  });
}
