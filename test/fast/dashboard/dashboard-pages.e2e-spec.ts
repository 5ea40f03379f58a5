import { resolveCountry } from '@app/countries';
import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

const DASHBOARD_CSP =
  "default-src 'self';base-uri 'self';font-src 'self';form-action 'self';" +
  "frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';" +
  "script-src-attr 'none';style-src 'self';connect-src 'self'";

/** The modules `dashboard.js` imports, directly or not (the page preloads them in this order). */
const MODULES = [
  'i18n.js',
  'language.js',
  'page.js',
  'api.js',
  'views.js',
  'tip.js',
  'chart-marks.js',
  'charts.js',
  'corrections.js',
  'overview.js',
  'country.js',
  'compare.js',
  'map-scale.js',
  'map.js',
  'status.js',
];

describe('dashboard pages and assets (HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('redirects / to /dashboard', async () => {
    const response = await t.http.get('/');
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/dashboard');
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
  });

  it('serves the page with a strict policy: own scripts and styles only, nothing inline', async () => {
    const response = await t.http.get('/dashboard');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const html = response.text;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
    expect(html.match(/(?:src|href)="[^"#]+"/g)).toEqual([
      'href="/dashboard/assets/uPlot.min.css"',
      'href="/dashboard/assets/dashboard.css"',
      'href="/dashboard/assets/icon.svg"',
      'src="/dashboard/assets/uPlot.iife.min.js"',
      'src="/dashboard/assets/dashboard.js"',
      ...MODULES.map((module) => `href="/dashboard/assets/${module}"`),
    ]);
    expect(html).toContain('<script type="module" src="/dashboard/assets/dashboard.js"></script>');
  });

  it('serves the ES modules as they are, each import one of them, every one preloaded', async () => {
    const imported = new Set<string>();
    for (const module of ['dashboard.js', ...MODULES]) {
      const response = await t.http.get(`/dashboard/assets/${module}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      for (const [, name] of response.text.matchAll(/(?:from|import) '\.\/([^']+)'/g))
        imported.add(name);
    }
    expect([...imported].sort()).toEqual([...MODULES].sort());
  });

  it('serves the assets from the project (uPlot from its package) and nothing else', async () => {
    const uplot = await t.http.get('/dashboard/assets/uPlot.iife.min.js');
    expect(uplot.status).toBe(200);
    expect(uplot.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(uplot.text).toContain('uPlot');
    // The map's libraries, loaded by map.js when the map is shown, from their packages too.
    for (const [file, global] of [
      ['d3-array.min.js', 'd3'],
      ['d3-geo.min.js', 'geoNaturalEarth1'],
      ['topojson-client.min.js', 'topojson'],
    ]) {
      const build = await t.http.get(`/dashboard/assets/${file}`);
      expect(build.status).toBe(200);
      expect(build.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(build.text).toContain(global);
    }
    const css = await t.http.get('/dashboard/assets/dashboard.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const icon = await t.http.get('/dashboard/assets/icon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    // Nothing secret in the page's code: no token, and Authorization only for /api/sources.
    let code = '';
    for (const module of ['dashboard.js', ...MODULES])
      code += (await t.http.get(`/dashboard/assets/${module}`)).text;
    expect(code).not.toMatch(/token-0123456789/);
    expect(code.match(/Authorization/g)).toHaveLength(1);
    for (const path of ['/dashboard/assets/missing.js', '/dashboard/assets/..%2Fpackage.json']) {
      const missing = await t.http.get(path);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: MESSAGES.routeNotFound });
    }
  });

  it("serves Natural Earth's outlines with each country's ISO alpha-3 code", async () => {
    const response = await t.http.get('/dashboard/assets/world-shapes.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const shapes = (
      response.body as {
        type: string;
        objects: {
          countries: { geometries: { id?: string; properties: Record<string, string> }[] };
        };
      }
    ).objects.countries.geometries;
    expect(shapes).toHaveLength(177);
    const byName = new Map(shapes.map((s) => [s.properties.name, s]));
    expect(byName.get('France')).toMatchObject({ id: '250', properties: { iso3: 'FRA' } });
    expect(byName.get('Peru')).toMatchObject({ id: '604', properties: { iso3: 'PER' } });
    // No ISO numeric code: Kosovo by its name (the country directory's XKX); the others without.
    expect(byName.get('Kosovo')?.properties).toEqual({ name: 'Kosovo', iso3: 'XKX' });
    expect(byName.get('Somaliland')?.properties).toEqual({ name: 'Somaliland' });
    expect(shapes.filter((s) => s.properties.iso3).length).toBe(175);
  });

  it("serves the countries' French names, by the name the API answers with", async () => {
    const response = await t.http.get('/dashboard/assets/country-names.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const { fr } = response.body as { fr: Record<string, string> };
    expect(fr.Germany).toBe('Allemagne');
    expect(fr.Peru).toBe('Pérou');
    expect(fr['United Kingdom']).toBe('Royaume-Uni');
    expect(fr.Kosovo).toBe('Kosovo');
    expect(Object.keys(fr).length).toBeGreaterThan(240);
    // Each name the page shows (and its picker suggests) leads back to the same country.
    const strays = Object.entries(fr).filter(
      ([name, french]) => resolveCountry(french)?.name !== name,
    );
    expect(strays).toEqual([]);
  });

  it('keeps the API answers on their own policy', async () => {
    const response = await t.http.get('/api/covid/public/totals');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});
