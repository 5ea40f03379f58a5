import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { cliTestBed } from '../../support/cli-test-bed';
import {
  OUTPUT,
  PHONE_390,
  WIDE,
  expectCleanText,
  open,
  paintedPixels,
  serveToBrowser,
} from '../../support/dashboard-browser';

/*
 * Issue 52's review of the dashboard, at 1400×1000 and at 390×844 by touch, on the JHU and OWID
 * files: the map of each country's latest value, its tip (unit, date) and a tap's tip, the charts'
 * ticks and last week, separate totals, French country names, the compare page's choices in the
 * URL, MPOX on the overview, the map's time slider. Screenshots go to
 * test-output/dashboard/<database>/sizes-*.png (docs/screenshots/ holds copies).
 */
const PORT = 3257;
const DATA = join(__dirname, '../../../../shared/data');
const NO_DATA_COLOUR = '#cfd4da';

interface MapAnswer {
  metric: string;
  date: string;
  period: string;
  countries: { country: string; iso3: string; date: string; value: number | null }[];
}
interface Weekly {
  country: string | null;
  weeks: string[];
  days: number[];
  new_cases: number[];
  new_deaths: number[];
  total_cases: number[];
  new_cases_smoothed: (number | null)[];
  new_deaths_smoothed: (number | null)[];
}

/** The dashboard's way of writing a figure: whole from 1000, else one or two decimals. */
function figure(value: number, locale: string): string {
  const size = Math.abs(value);
  const digits = size < 10 ? 2 : size < 1000 ? 1 : 0;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}
const frenchDate = (date: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** The fill of each drawn country shape, by ISO alpha-3 code ('' for those without one). */
function fills(page: Page): Promise<[string, string][]> {
  return page.$$eval('#map-svg path', (paths) =>
    paths.map((p) => [p.getAttribute('data-iso3') ?? '', p.getAttribute('fill') ?? '']),
  );
}

/** What a chart drew: each series' latest value and the axes' tick labels. */
async function drawn(page: Page, id: string) {
  const element = page.locator(`#${id}`);
  return {
    last: JSON.parse((await element.getAttribute('data-last')) ?? '[]') as (number | null)[],
    ticks: JSON.parse((await element.getAttribute('data-ticks')) ?? '{}') as Record<
      string,
      string[]
    >,
  };
}

/** No label repeats another of its axis (blanks aside). */
function expectDistinct(ticks: Record<string, string[]>) {
  expect(Object.keys(ticks)).toEqual(expect.arrayContaining(['x', 'y']));
  for (const [axis, labels] of Object.entries(ticks)) {
    const shown = labels.filter(Boolean);
    expect([axis, shown.length]).toEqual([axis, new Set(shown).size]);
  }
}

describe('dashboard at 1400×1000 and 390×844 (touch), on the JHU and OWID files', () => {
  const bed = cliTestBed('dashboard-sizes-');
  let browser: Browser;
  const url = (fragment: string, lang = '') =>
    `http://127.0.0.1:${PORT}/dashboard${lang ? `?lang=${lang}` : ''}#${fragment}`;
  const get = async <T>(path: string) => (await bed.t.http.get(path)).body as T;

  beforeAll(async () => {
    for (const [what, file] of [
      ['covid', 'covid-jhu-2023-03-09.csv.gz'],
      ['mpox', 'mpox-owid-2023-11-16.csv.gz'],
      ['population', 'population-owid-2020.csv'],
    ]) {
      const imported = await bed.cli('import', what, join(DATA, file));
      expect(imported.code).toBe(0);
    }
    browser = await serveToBrowser(bed.t, PORT);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("colours every country with MPOX data by MPOX's latest day, its date and unit in the tip", async () => {
    const { page, problems } = await open(browser, url('map/mpox/total_cases/day'), WIDE);
    await page.waitForSelector('#map-svg[data-drawn^="mpox:total_cases:day:"]');
    const answer = await get<MapAnswer>('/api/mpox/public/map?metric=total_cases');
    expect(answer.date).toBe('2023-11-16');
    // Each country's latest value by then, not only those that reported on that very day.
    expect(answer.countries.length).toBeGreaterThan(100);
    const withValue = new Set(answer.countries.filter((c) => c.value !== null).map((c) => c.iso3));
    const shapes = await fills(page);
    const coloured = shapes.filter(([, fill]) => fill !== NO_DATA_COLOUR).map(([iso3]) => iso3);
    const expected = shapes.map(([iso3]) => iso3).filter((iso3) => withValue.has(iso3));
    expect(coloured.sort()).toEqual(expected.sort());
    expect(coloured.length).toBeGreaterThan(90);
    // The tip: the name in French, the value with its unit, and the value's own date.
    const brazil = answer.countries.find((c) => c.iso3 === 'BRA')!;
    await page.locator('#map-svg path[data-iso3="BRA"]').hover();
    expect(await page.locator('#map-tip').innerText()).toBe(
      `Brésil\n${figure(brazil.value!, 'fr-FR')} Total des cas\nle ${frenchDate(brazil.date)}`,
    );
    expect(
      await page.locator('#map-svg a[href="#country/Brazil"]').getAttribute('aria-label'),
    ).toBe(
      `Brésil : ${figure(brazil.value!, 'fr-FR')} Total des cas, le ${frenchDate(brazil.date)}`,
    );
    // The table: every country, with the date of its value.
    expect(await page.locator('#map-table tbody tr').count()).toBe(answer.countries.length);
    await page.screenshot({ path: join(OUTPUT, 'sizes-map-mpox-desktop.png'), fullPage: true });
    await expectCleanText(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone: the map as wide as the screen, the controls wrapped, a tap shows the value', async () => {
    const { page, problems } = await open(browser, url('map'), PHONE_390, { touch: true });
    await page.waitForSelector('#map-svg[data-drawn]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE_390.width);
    const svg = await page.locator('#map-svg').boundingBox();
    expect(svg?.x).toBe(0);
    expect(svg?.width).toBe(PHONE_390.width);
    // Every control within the screen: the metric's long names are not cut off.
    for (const id of ['map-disease', 'map-metric', 'map-period', 'map-date', 'map-slider']) {
      const box = await page.locator(`#${id}`).boundingBox();
      expect([id, box!.x >= 0 && box!.x + box!.width <= PHONE_390.width]).toEqual([id, true]);
    }
    const answer = await get<MapAnswer>('/api/covid/public/map');
    const brazil = answer.countries.find((c) => c.iso3 === 'BRA')!;
    await page.locator('#map-svg path[data-iso3="BRA"]').tap();
    // The tap shows the tip, with a link to the page, and does not leave the map.
    expect(await page.locator('#map-tip').isVisible()).toBe(true);
    expect(await page.locator('#map-tip').innerText()).toBe(
      `Brésil\n${figure(brazil.value!, 'fr-FR')} Nouveaux cas par million d'habitants (moyenne sur 7 jours)\nle ${frenchDate(brazil.date)}\nOuvrir la page du pays`,
    );
    expect(page.url()).toBe(url('map'));
    await page.screenshot({ path: join(OUTPUT, 'sizes-map-phone.png') });
    await page.locator('#map-tip a').tap();
    await page.waitForFunction(
      () => document.getElementById('country-name')?.textContent === 'Brésil',
    );
    expect(page.url()).toBe(url('country/Brazil'));
    await page.waitForSelector('#country-total-deaths canvas');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE_390.width);
    await page.screenshot({ path: join(OUTPUT, 'sizes-country-phone.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("draws France's last, incomplete week as such: a 7-day average, never one of 4 days", async () => {
    const { page, problems } = await open(browser, url('country/France'), WIDE);
    await page.waitForSelector('#country-total-deaths canvas');
    const weekly = await get<Weekly>('/api/covid/public/country/France/weekly');
    const last = weekly.weeks.length - 1;
    // The JHU file ends on Thursday 9 March 2023: the last week has 4 days.
    expect([weekly.weeks[last], weekly.days[last], weekly.new_cases[last]]).toEqual([
      '2023-03-12',
      4,
      27628,
    ]);
    const cases = await drawn(page, 'country-cases');
    // The bar, the 7-day average at 9 March (not 27,628 / 4 = 6,907), the pale overlay.
    expect(cases.last).toEqual([27628, weekly.new_cases_smoothed[last], 27628]);
    expect(Math.round(cases.last[1]!)).toBe(4403);
    expect(await page.locator('#country-cases .u-legend').innerText()).toContain(
      'Semaine incomplète (4 j sur 7)',
    );
    // Cases and deaths totals on charts of their own, one series each.
    for (const [id, key] of [
      ['country-total-cases', 'total_cases'],
      ['country-total-deaths', 'total_deaths'],
    ] as const) {
      const totals = await drawn(page, id);
      expect(totals.last).toEqual([
        key === 'total_cases' ? weekly.total_cases[last] : expect.any(Number),
      ]);
      expectDistinct(totals.ticks);
    }
    // Ticks in French, none repeated (the 90 days: day and month; the totals: 39,2 M ...).
    for (const id of ['country-cases', 'country-deaths', 'country-mpox']) {
      const { ticks } = await drawn(page, id);
      expectDistinct(ticks);
      expect(ticks.x.join(' ')).not.toMatch(/\d+\/\d+/);
    }
    expect((await drawn(page, 'country-cases')).ticks.x.join(' ')).toMatch(
      /(janv|févr|mars|déc)\./,
    );
    expect(await page.locator('#country-name').innerText()).toBe('France');
    await page.screenshot({ path: join(OUTPUT, 'sizes-country-desktop.png'), fullPage: true });
    // Everything: ticks by month or year, still none repeated, in English too.
    await page.locator('#country-range').selectOption('all');
    await page.waitForFunction(() =>
      (document.getElementById('country-cases')?.dataset.ticks ?? '').includes('2021'),
    );
    for (const id of ['country-cases', 'country-total-cases', 'country-total-deaths'])
      expectDistinct((await drawn(page, id)).ticks);
    await expectCleanText(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('names countries in French on the French pages (overview, country, the picker)', async () => {
    const { page, problems } = await open(browser, url('overview'), WIDE);
    await page.waitForSelector('#top tbody tr');
    expect(await page.locator('#top tbody tr:first-child td:first-child').innerText()).toBe(
      "États-Unis d'Amérique",
    );
    await page.goto(url('country/Germany'));
    await page.waitForFunction(
      () => document.getElementById('country-name')?.textContent === 'Allemagne',
    );
    // The picker suggests the names in the page's language, again after a switch.
    expect(await page.locator('#country-list option[value="Allemagne"]').count()).toBe(1);
    expect(await page.locator('#country-list option[value="Germany"]').count()).toBe(0);
    await page.locator('#lang').click();
    await page.waitForFunction(
      () => document.getElementById('country-name')?.textContent === 'Germany',
    );
    expect(await page.locator('#country-list option[value="Germany"]').count()).toBe(1);
    await page.goto(url('country/Germany', 'en'));
    await page.waitForFunction(
      () => document.getElementById('country-name')?.textContent === 'Germany',
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows MPOX on the overview', async () => {
    const { page, problems } = await open(browser, url('overview'), WIDE);
    await page.waitForSelector('#world-mpox canvas');
    const world = await get<Weekly>('/api/mpox/public/weekly');
    const { last } = await drawn(page, 'world-mpox');
    expect(last[0]).toBe(world.new_cases[world.new_cases.length - 1]);
    for (const painted of await paintedPixels(page, '#world-mpox')) {
      expect(painted).toBeGreaterThan(1000);
    }
    await page.screenshot({ path: join(OUTPUT, 'sizes-overview-desktop.png'), fullPage: true });
    const phone = await open(browser, url('overview'), PHONE_390, { touch: true });
    await phone.page.waitForSelector('#world-mpox canvas');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await phone.page.screenshot({ path: join(OUTPUT, 'sizes-overview-phone.png') });
    expect([...problems, ...phone.problems]).toEqual([]);
    await phone.page.close();
    await page.close();
  });

  it('compares deaths over a date range on a log scale, the choices in a shareable URL', async () => {
    const { page, problems } = await open(browser, url('compare'), WIDE);
    await page.locator('#compare-1').fill('France');
    await page.locator('#compare-2').fill('Allemagne');
    await page.locator('#compare-figure').selectOption('deaths');
    await page.locator('#compare-mode').selectOption('daily');
    await page.locator('#compare-from').fill('2021-01-01');
    await page.locator('#compare-to').fill('2021-12-31');
    await page.locator('#compare-log').check();
    await page.locator('#compare-form button[type="submit"]').click();
    const link = url(
      'compare/countries=France%2CAllemagne&figure=deaths&mode=daily&from=2021-01-01&to=2021-12-31&scale=log',
    );
    await page.waitForURL(link);
    await page.waitForSelector('#compare-chart[data-scale="log"] canvas');
    // A shared link draws the same chart: the choices come back from the URL.
    const shared = await open(browser, link, WIDE);
    await shared.page.waitForSelector('#compare-chart[data-scale="log"] canvas');
    expect(await shared.page.locator('#compare-figure').inputValue()).toBe('deaths');
    expect(await shared.page.locator('#compare-2').inputValue()).toBe('Allemagne');
    expect(await shared.page.locator('#compare-log').isChecked()).toBe(true);
    const france = await get<Weekly>('/api/covid/public/country/France/weekly');
    const germany = await get<Weekly>('/api/covid/public/country/Germany/weekly');
    // The last week of the range: 27 Dec 2021 to 2 Jan 2022, named by its Sunday.
    const at = (w: Weekly) => w.new_deaths[w.weeks.indexOf('2022-01-02')] / 7;
    const { last, ticks } = await drawn(shared.page, 'compare-chart');
    expect(last).toEqual([at(france), at(germany)]);
    expectDistinct(ticks);
    expect(await shared.page.locator('#compare-chart .u-legend').innerText()).toContain(
      'Allemagne',
    );
    await shared.page.screenshot({
      path: join(OUTPUT, 'sizes-compare-desktop.png'),
      fullPage: true,
    });
    expect([...problems, ...shared.problems]).toEqual([]);
    await shared.page.close();
    await page.close();
  });

  it('steps the map through days with the slider, and plays them', async () => {
    const { page, problems } = await open(browser, url('map/covid/new_cases/day/2023-03-01'), WIDE);
    await page.waitForSelector('#map-svg[data-drawn="covid:new_cases:day:2023-03-01"]');
    expect(await page.locator('#map-slider-date').innerText()).toBe('1 mars 2023');
    await page.locator('#map-slider').focus();
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('#map-svg[data-drawn="covid:new_cases:day:2023-02-28"]');
    expect(page.url()).toBe(url('map/covid/new_cases/day/2023-02-28'));
    await page.locator('#map-play').click();
    expect(await page.locator('#map-play').innerText()).toBe('Pause');
    await page.waitForSelector('#map-svg[data-drawn="covid:new_cases:day:2023-03-02"]', {
      timeout: 10_000,
    });
    await page.locator('#map-play').click();
    expect(await page.locator('#map-play').getAttribute('aria-pressed')).toBe('false');
    expect(await page.locator('#map-play').innerText()).toBe('Lecture');
    // Weeks: the slider steps by ISO week.
    await page.goto(url('map/covid/new_cases/week/2023-03-01'));
    await page.waitForSelector('#map-svg[data-drawn="covid:new_cases:week:2023-03-05"]');
    await page.locator('#map-slider').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#map-svg[data-drawn="covid:new_cases:week:2023-03-12"]');
    expect(problems).toEqual([]);
    await page.close();
  });
});
