import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MESSAGES } from '@app/common';
import { JSON_TYPE } from '../common/json-content-type';
import { DASHBOARD_ASSETS_PATH, DASHBOARD_PATH } from './dashboard-paths';

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
};

function asset(file: string): Asset {
  const extension = file.slice(file.lastIndexOf('.'));
  return { type: TYPES[extension], body: readFileSync(file) };
}

/**
 * Every file the dashboard serves, read once at start-up: the page, its script and style, and
 * uPlot's browser build and style from the installed package (no CDN). A fixed list, so that no
 * request path ever reaches the file system.
 */
export function dashboardAssets(): { page: Asset; assets: Map<string, Asset> } {
  const uplot = dirname(require.resolve('uplot'));
  const assets = new Map<string, Asset>([
    ['dashboard.js', asset(join(PAGES_DIR, 'dashboard.js'))],
    ['dashboard.css', asset(join(PAGES_DIR, 'dashboard.css'))],
    ['uPlot.iife.min.js', asset(join(uplot, 'uPlot.iife.min.js'))],
    ['uPlot.min.css', asset(join(uplot, 'uPlot.min.css'))],
  ]);
  return { page: asset(join(PAGES_DIR, 'index.html')), assets };
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
