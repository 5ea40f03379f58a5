import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceRepository } from '@app/database';
import { Browser, Page } from 'playwright-core';
import {
  DESKTOP,
  OUTPUT,
  PHONE,
  expectCleanText,
  open,
  paintedPixels,
  serveToBrowser,
} from '../../support/dashboard-browser';
import { cliTestBed } from '../../support/cli-test-bed';
import { TestApp, bootTestApp } from '../../support/test-app';

/*
 * The dashboard in headless Chromium (slow: imports the JHU and MPOX files first). Screenshots and
 * the measured first paint go to test-output/dashboard/<database>/.
 */
const PORT = 3241;
const THROTTLED_PORT = 3242;
const DATA = join(__dirname, '../../../../shared/data');
const fr = new Intl.NumberFormat('fr-FR');

/** What the Performance API says of the overview's load (report only: no timed assertion). */
function timing(page: Page) {
  return page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const ready = performance.getEntriesByName('overview-ready')[0];
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const bytes = (kind: (r: PerformanceResourceTiming) => boolean) =>
      resources.filter(kind).reduce((sum, r) => sum + r.encodedBodySize, 0);
    // By name: preloaded and imported modules are not all of the `script` initiator type.
    const named = (end: string) => (r: PerformanceResourceTiming) => r.name.endsWith(end);
    return {
      firstContentfulPaintMs: Math.round(paint?.startTime ?? -1),
      numbersAndChartsMs: Math.round(ready?.startTime ?? -1),
      pageBytes: navigation.encodedBodySize,
      scriptBytes: bytes(named('.js')),
      styleBytes: bytes(named('.css')),
      apiBytes: bytes((r) => r.initiatorType === 'fetch'),
    };
  });
}

describe('dashboard in headless Chromium, on the JHU and MPOX data', () => {
  const bed = cliTestBed('dashboard-');
  let browser: Browser;

  beforeAll(async () => {
    for (const [disease, file] of [
      ['covid', 'covid-jhu-2023-03-09.csv.gz'],
      ['mpox', 'mpox-owid-2023-11-16.csv.gz'],
    ]) {
      const imported = await bed.cli('import', disease, join(DATA, file));
      expect(imported.code).toBe(0);
    }
    // Our World in Data's population table, for the per-million views and the map.
    const population = await bed.cli(
      'import',
      'population',
      join(DATA, 'population-owid-2020.csv'),
    );
    expect(population.code).toBe(0);
    browser = await serveToBrowser(bed.t, PORT);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('redirects / to the French overview, whose numbers are the API totals, with charts drawn', async () => {
    const { page, problems } = await open(browser, `http://127.0.0.1:${PORT}/`);
    expect(page.url()).toBe(`http://127.0.0.1:${PORT}/dashboard`);
    const totals = (await bed.t.http.get('/api/covid/public/totals')).body as Record<
      string,
      number
    >;
    const mpox = (await bed.t.http.get('/api/mpox/public/summary')).body as Record<string, number>;
    await page.waitForSelector('#world-deaths canvas');
    await page.waitForSelector('#top tbody tr');
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('#covid-cases').innerText()).toBe(fr.format(totals.total_cases));
    expect(await page.locator('#covid-deaths').innerText()).toBe(fr.format(totals.total_deaths));
    expect(await page.locator('#mpox-cases').innerText()).toBe(fr.format(mpox.total_cases));
    expect(await page.locator('#mpox-deaths').innerText()).toBe(fr.format(mpox.total_deaths));
    // French grouping: narrow no-break spaces.
    expect(await page.locator('#covid-cases').innerText()).toMatch(/^\d{1,3}(\u202f\d{3})+$/);
    expect(await page.locator('#covid-date').innerText()).toMatch(
      /^9 mars 2023 \(il y a \d+ jours\)$/,
    );
    expect(await page.locator('#mpox-date').innerText()).toMatch(/^16 nov\. 2023 /);
    await page.screenshot({ path: join(OUTPUT, 'overview-desktop.png') });
    for (const painted of await paintedPixels(page, '#overview')) {
      expect(painted).toBeGreaterThan(1000);
    }
    // The table: 20 rows, most cases first; sorted by deaths on a click.
    expect(await page.locator('#top tbody tr').count()).toBe(20);
    // Country names in the page's language (libs/countries' French names).
    expect(await page.locator('#top tbody tr:first-child td:first-child').innerText()).toBe(
      "États-Unis d'Amérique",
    );
    await page.locator('button[data-sort="country"]').click();
    expect(await page.locator('#top tbody tr:first-child td:first-child').innerText()).toBe(
      'Afghanistan',
    );
    await page.locator('button[data-sort="country"]').click();
    expect(
      await page.locator('th:has(button[data-sort="country"])').getAttribute('aria-sort'),
    ).toBe('descending');
    await expectCleanText(page);
    // The page names its icon, which answers: browsers then never ask for /favicon.ico (a 404).
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    const iconAnswer = await page.request.get(`http://127.0.0.1:${PORT}${icon}`);
    expect(iconAnswer.status()).toBe(200);
    expect(iconAnswer.headers()['content-type']).toBe('image/svg+xml');

    const cold = await timing(page);
    // Once more with a warm browser and server (the figure a returning visitor sees).
    await page.reload();
    await page.waitForFunction(() => performance.getEntriesByName('overview-ready').length > 0);
    const warm = await timing(page);
    const figures = JSON.stringify({ cold, warm }, null, 2);
    writeFileSync(join(OUTPUT, 'overview-timing.json'), `${figures}\n`);
    process.stdout.write(`dashboard overview timing: ${figures}\n`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('switches to English, remembered in localStorage and the URL', async () => {
    const { page, problems } = await open(browser, `http://127.0.0.1:${PORT}/dashboard`);
    await page.waitForFunction(() => performance.getEntriesByName('overview-ready').length === 1);
    await page.locator('#lang').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    // The overview is drawn again in English before the page is left.
    await page.waitForFunction(() => performance.getEntriesByName('overview-ready').length === 2);
    expect(page.url()).toBe(`http://127.0.0.1:${PORT}/dashboard?lang=en`);
    expect(await page.locator('nav a[data-view="overview"]').innerText()).toBe('World overview');
    await page.goto(`http://127.0.0.1:${PORT}/dashboard`);
    await page.waitForSelector('#world-cases canvas');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    const totals = (await bed.t.http.get('/api/covid/public/totals')).body as Record<
      string,
      number
    >;
    await page.waitForFunction(() => document.getElementById('covid-cases')?.textContent !== '…');
    expect(await page.locator('#covid-cases').innerText()).toBe(
      new Intl.NumberFormat('en-GB').format(totals.total_cases),
    );
    await expectCleanText(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a country (bars, 7-day average, totals, MPOX) for the last 90 days or more', async () => {
    const { page, problems } = await open(browser, `http://127.0.0.1:${PORT}/dashboard#country`);
    await page.locator('#country-input').fill('France');
    await page.locator('#country-input').press('Enter');
    await page.waitForSelector('#country-mpox canvas');
    expect(await page.locator('#country-name').innerText()).toBe('France');
    expect(page.url()).toBe(`http://127.0.0.1:${PORT}/dashboard#country/France`);
    for (const id of [
      'country-cases',
      'country-deaths',
      'country-total-cases',
      'country-total-deaths',
      'country-mpox',
    ]) {
      const [painted] = await paintedPixels(page, `#${id}`);
      expect(painted).toBeGreaterThan(1000);
    }
    await page.locator('#country-range').selectOption('all');
    await page.waitForSelector('#country-cases canvas');
    await expectCleanText(page);
    await page.screenshot({ path: join(OUTPUT, 'country-desktop.png') });
    // The country suggestions come from the public list.
    expect(await page.locator('#country-list option').count()).toBe(
      ((await bed.t.http.get('/api/covid/public/countries')).body as unknown[]).length,
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  // Country names are resolved in French and English and by ISO code (libs/countries).
  it('shows the same country for Allemagne, DEU and Germany', async () => {
    const { page } = await open(browser, `http://127.0.0.1:${PORT}/dashboard#country`);
    for (const typed of ['Allemagne', 'DEU', 'Germany']) {
      await page.locator('#country-input').fill(typed);
      await page.locator('#country-input').press('Enter');
      await page.waitForFunction(
        (name) => decodeURIComponent(location.hash) === `#country/${name}`,
        typed,
      );
      await page.waitForFunction(
        () =>
          document.getElementById('country-name')?.textContent !== '' ||
          document.getElementById('country-message')?.textContent !== '',
      );
      expect(await page.locator('#country-message').innerText()).toBe('');
      expect(await page.locator('#country-name').innerText()).toBe('Allemagne');
    }
    await page.close();
  });

  it('compares up to four countries, absolute or per day', async () => {
    const { page, problems } = await open(browser, `http://127.0.0.1:${PORT}/dashboard#compare`);
    const names = ['France', 'Germany', 'Italy', 'Spain'];
    for (const [i, name] of names.entries()) await page.locator(`#compare-${i + 1}`).fill(name);
    await page.locator('#compare-form button[type="submit"]').click();
    await page.waitForSelector('#compare-chart canvas');
    expect(await page.locator('#compare-chart .u-legend .u-label').allInnerTexts()).toEqual(
      expect.arrayContaining(['France', 'Allemagne', 'Italie', 'Espagne']),
    );
    await page.locator('#compare-mode').selectOption('daily');
    await page.locator('#compare-form button[type="submit"]').click();
    await page.waitForFunction(() =>
      document.querySelector('#compare-chart .u-title')?.textContent?.includes('par jour'),
    );
    const [painted] = await paintedPixels(page, '#compare-chart');
    expect(painted).toBeGreaterThan(1000);
    await expectCleanText(page);
    await page.screenshot({ path: join(OUTPUT, 'compare-desktop.png') });
    // Per million people, 7-day average: countries of different sizes on one scale.
    await page.locator('#compare-view').selectOption('smoothed_per_million');
    await page.locator('#compare-form button[type="submit"]').click();
    await page.waitForFunction(() =>
      document.querySelector('#compare-chart .u-title')?.textContent?.includes('par million'),
    );
    await page.screenshot({ path: join(OUTPUT, 'compare-per-million-desktop.png') });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("draws the world map of the JHU data's latest date, every country with a value coloured", async () => {
    const answer = (
      await bed.t.http.get('/api/covid/public/map?metric=new_cases_smoothed_per_million')
    ).body as { date: string; countries: { iso3: string | null; value: number | null }[] };
    expect(answer.date).toBe('2023-03-09');
    const withValue = new Set(answer.countries.filter((c) => c.value != null).map((c) => c.iso3));
    for (const [viewport, name] of [
      [DESKTOP, 'map-desktop.png'],
      [PHONE, 'map-phone.png'],
    ] as const) {
      const { page, problems } = await open(
        browser,
        `http://127.0.0.1:${PORT}/dashboard#map`,
        viewport,
      );
      await page.waitForSelector('#map-svg[data-drawn]');
      const shapes = await page.$$eval('#map-svg path', (paths) =>
        paths.map((p) => [p.getAttribute('data-iso3') ?? '', p.getAttribute('fill')]),
      );
      expect(shapes.length).toBe(176);
      const coloured = shapes.filter(([, fill]) => fill !== '#cfd4da').map(([iso3]) => iso3);
      expect(coloured.length).toBeGreaterThanOrEqual(150);
      expect(coloured.every((iso3) => withValue.has(iso3))).toBe(true);
      expect(shapes.filter(([iso3]) => withValue.has(iso3)).length).toBe(coloured.length);
      await page.screenshot({ path: join(OUTPUT, name), fullPage: viewport === DESKTOP });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('shows the sources only after a token is typed, and "sync not configured" without sync', async () => {
    const { page } = await open(browser, `http://127.0.0.1:${PORT}/dashboard#status`);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.headers().authorization !== undefined) sent.push(request.url());
    });
    await page.waitForSelector('#status-token');
    // The files imported above are sources too: none here, as on an instance never fed.
    await bed.t.dataSource.query('DELETE FROM sources');
    expect(await page.locator('#status-message').innerText()).toBe('');
    await page.locator('#status-token').fill('alice-token-0123456789abcdef');
    await page.locator('#status-form button[type="submit"]').click();
    await page.waitForFunction(() => document.getElementById('status-message')?.textContent !== '');
    expect(await page.locator('#status-message').innerText()).toBe(
      "Synchronisation non configurée : cette instance n'a pas de sources.",
    );
    // A valid token without `sources:read` is told so, not merely "refused".
    await page.locator('#status-token').fill('reader-token-0123456789abcdef');
    await page.locator('#status-form button[type="submit"]').click();
    await page.waitForFunction(() =>
      document.getElementById('status-message')?.textContent?.includes('sources:read'),
    );
    expect(await page.locator('#status-message').innerText()).toBe(
      "Ce jeton est valide mais n'a pas le droit sources:read : demandez-le à l'administrateur (tokens scope).",
    );
    // A URL imported by hand is listed, with what its last import did.
    await bed.t.app.get(SourceRepository).save({
      dataset: 'covid',
      url: 'https://example.org/covid.csv',
      etag: null,
      lastModified: null,
      contentHash: null,
      lastAttemptAt: Date.UTC(2026, 0, 2),
      lastSuccessAt: Date.UTC(2026, 0, 2),
      outcome: 'updated',
      rowsInserted: 1234,
      rowsUpdated: 0,
      rowsUnchanged: 0,
      rowsSkipped: 0,
      lastImportId: null,
      lastError: null,
    });
    await page.locator('#status-token').fill('alice-token-0123456789abcdef');
    await page.locator('#status-form button[type="submit"]').click();
    await page.waitForSelector('#sources tbody tr');
    const cells = await page.locator('#sources tbody tr td').allInnerTexts();
    // Labelled cells, dates and numbers in French (narrow no-break space); the browser runs in UTC.
    expect((await page.locator('#sources thead th').allInnerTexts()).join(' | ')).toBe(
      'Source | Dernière tentative | Dernier succès | Résultat | Lignes | Erreur',
    );
    expect(cells).toEqual([
      'covid https://example.org/covid.csv',
      '02/01/2026 00:00:00',
      '02/01/2026 00:00:00',
      'mise à jour',
      '1\u202f234 insérées, 0 modifiées, 0 inchangées',
      '—',
    ]);
    // The token went to /api/sources only, and stays in this tab's sessionStorage.
    expect(sent).toEqual([
      `http://127.0.0.1:${PORT}/api/sources`,
      `http://127.0.0.1:${PORT}/api/sources`,
      `http://127.0.0.1:${PORT}/api/sources`,
    ]);
    expect(await page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBe(
      'alice-token-0123456789abcdef',
    );
    await page.screenshot({ path: join(OUTPUT, 'status-desktop.png') });
    await page.close();
  });

  it('says so when a country is unknown (404)', async () => {
    const { page } = await open(browser, `http://127.0.0.1:${PORT}/dashboard#country/Atlantis`);
    await page.waitForFunction(() => document.getElementById('country-message')?.textContent);
    expect(await page.locator('#country-message').innerText()).toBe(
      'Pays introuvable : vérifiez le nom ou le code.',
    );
    expect(await page.locator('#country-cases canvas').count()).toBe(0);
    await expectCleanText(page);
    await page.close();
  });

  it('is readable at phone size (375 px): nothing wider than the window', async () => {
    const { page, problems } = await open(browser, `http://127.0.0.1:${PORT}/dashboard`, PHONE);
    await page.waitForSelector('#world-deaths canvas');
    await page.waitForSelector('#top tbody tr');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    // Every control can be reached with the keyboard and has a label.
    const unlabelled = await page.$$eval('input, select', (controls) =>
      controls.filter((c) => (c as HTMLInputElement).labels?.length === 0).map((c) => c.id),
    );
    expect(unlabelled).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, 'overview-phone.png') });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.goto(`http://127.0.0.1:${PORT}/dashboard#country/France`);
    await page.waitForSelector('#country-mpox canvas');
    await page.screenshot({ path: join(OUTPUT, 'country-phone.png') });
    expect(problems).toEqual([]);
    await page.close();
  });

  describe('with a small rate limit (THROTTLE_LIMIT)', () => {
    let throttled: TestApp;
    beforeAll(async () => {
      throttled = await bootTestApp({ THROTTLE_LIMIT: '2', THROTTLE_TTL: '60' });
      await throttled.app.listen(THROTTLED_PORT, '127.0.0.1');
    });
    afterAll(() => throttled?.close());

    it('shows the 429 message with the wait from Retry-After', async () => {
      const { page } = await open(browser, `http://127.0.0.1:${THROTTLED_PORT}/dashboard`);
      await page.waitForFunction(() => document.getElementById('overview-message')?.textContent);
      expect(await page.locator('#overview-message').innerText()).toMatch(
        /^Trop de requêtes : réessayez dans \d+ s\.$/,
      );
      await expectCleanText(page);
      await page.close();
    });
  });
});
