import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveCountry } from '@app/countries';
import { Browser, Page } from 'playwright-core';
import { cliTestBed } from '../../support/cli-test-bed';
import {
  OUTPUT,
  PHONE,
  expectCleanText,
  open,
  paintedPixels,
  serveToBrowser,
} from '../../support/dashboard-browser';

/*
 * The world map and the per-million / 7-day-average views in headless Chromium, on figures written
 * through the API for every country the map has a shape for (but a few left without, to show the
 * no-data colour) and a population table imported with the command line. Screenshots go to
 * test-output/dashboard/<database>/ (docs/screenshots/ holds copies).
 */
const PORT = 3243;
/** Countries with a shape but no figures: they keep the no-data colour and are no links. */
const WITHOUT_DATA = ['GRL', 'ESH', 'MNG', 'BOL'];
const NO_DATA_COLOUR = '#cfd4da';
const DAYS = 14;
const FIRST_DAY = Date.UTC(2023, 2, 1);
const day = (i: number) => new Date(FIRST_DAY + i * 86_400_000).toISOString().slice(0, 10);

interface Shapes {
  objects: { countries: { geometries: { properties: { iso3?: string } }[] } };
}
interface MapAnswer {
  metric: string;
  date: string;
  period: string;
  countries: { country: string; iso3: string | null; value: number | null }[];
}
interface Weekly {
  weeks: string[];
  days: number[];
  population: number | null;
  new_cases: number[];
  new_cases_per_million: (number | null)[];
  new_cases_smoothed: (number | null)[];
}

/** The dashboard's way of writing a figure: whole from 1000, else one or two decimals. */
function figure(value: number, locale: string): string {
  const size = Math.abs(value);
  const digits = size < 10 ? 2 : size < 1000 ? 1 : 0;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

/** The fill of each drawn country shape, by ISO alpha-3 code ('' for those without one). */
function fills(page: Page): Promise<[string, string][]> {
  return page.$$eval('#map-svg path', (paths) =>
    paths.map((p) => [p.getAttribute('data-iso3') ?? '', p.getAttribute('fill') ?? '']),
  );
}

describe('dashboard world map and per-million views in headless Chromium', () => {
  const bed = cliTestBed('dashboard-map-');
  let browser: Browser;
  /** The countries written, by ISO alpha-3 code: name and population. */
  const seeded = new Map<string, { name: string; population: number }>();
  const url = (fragment: string, lang = '') =>
    `http://127.0.0.1:${PORT}/dashboard${lang ? `?lang=${lang}` : ''}#${fragment}`;
  const mapAnswer = async (query: Record<string, string>) =>
    (await bed.t.http.get('/api/covid/public/map').query(query)).body as MapAnswer;

  beforeAll(async () => {
    const shapes = (await bed.t.http.get('/dashboard/assets/world-shapes.json')).body as Shapes;
    const codes = shapes.objects.countries.geometries
      .map((g) => g.properties.iso3)
      .filter((c): c is string => !!c && c !== 'ATA' && !WITHOUT_DATA.includes(c));
    for (const [i, iso3] of codes.entries()) {
      const country = resolveCountry(iso3);
      // Populations unrelated to the counts, so that the rates spread over every colour.
      const population = (1 + ((i * 37) % 50)) * 1_000_000;
      if (country) seeded.set(iso3, { name: country.name, population });
    }
    // Country i: 10 × (i + 1) new cases a day plus the day's number.
    const records = [...seeded.values()].flatMap(({ name }, i) => {
      let total = 0;
      return Array.from({ length: DAYS }, (_, d) => {
        const newCases = (i + 1) * 10 + d;
        total += newCases;
        return {
          date: day(d),
          country: name,
          new_cases: newCases,
          total_cases: total,
          new_deaths: i % 3,
          total_deaths: (i % 3) * (d + 1),
        };
      });
    });
    // MPOX for 20 countries, those whose page the tests open among them (no 404 on their pages).
    const MPOX = new Set(['Peru', 'Germany', 'Canada', ...[...seeded.values()].map((c) => c.name)]);
    while (MPOX.size > 20) MPOX.delete([...MPOX][MPOX.size - 1]);
    for (const disease of ['covid', 'mpox']) {
      const written = await bed.t.http
        .post(`/api/${disease}/data/bulk`)
        .set(bed.t.auth())
        .send(disease === 'covid' ? records : records.filter((r) => MPOX.has(r.country)));
      expect(written.status).toBe(200);
    }
    const table = [...seeded.entries()]
      .map(([iso3, { name, population }]) => `${name},${iso3},2023,${population}`)
      .join('\n');
    const file = join(bed.dir, 'population.csv');
    writeFileSync(file, `entity,iso_code,year,population\n${table}\n`);
    const imported = await bed.cli('import', 'population', file);
    expect(imported.code).toBe(0);
    browser = await serveToBrowser(bed.t, PORT);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('draws every country, coloured by new cases per million (7-day average), with a legend', async () => {
    expect(seeded.size).toBeGreaterThanOrEqual(165);
    const { page, problems } = await open(browser, url('map'));
    await page.waitForSelector('#map-svg[data-drawn]');
    const answer = await mapAnswer({ metric: 'new_cases_smoothed_per_million' });
    expect(answer.date).toBe(day(DAYS - 1));
    const drawn = await fills(page);
    // Natural Earth's 177 countries but Antarctica.
    expect(drawn.length).toBe(176);
    const value = new Map(answer.countries.map((c) => [c.iso3, c.value]));
    for (const [iso3, fill] of drawn) {
      if (seeded.has(iso3)) {
        expect([iso3, value.get(iso3)]).toEqual([iso3, expect.any(Number)]);
        expect([iso3, fill]).not.toEqual([iso3, NO_DATA_COLOUR]);
      } else expect([iso3, fill]).toEqual([iso3, NO_DATA_COLOUR]);
    }
    expect(new Set(drawn.map(([, fill]) => fill)).size).toBe(8);
    // One link per country with an answer, to its page.
    expect(await page.locator('#map-svg a').count()).toBe(
      drawn.filter(([iso3]) => seeded.has(iso3)).length,
    );
    expect(await page.locator('#map-heading').innerText()).toBe(
      "COVID-19 — Nouveaux cas par million d'habitants (moyenne sur 7 jours) — Données du 14 mars 2023",
    );
    const legend = await page.locator('#map-legend li').allInnerTexts();
    expect(legend).toHaveLength(8);
    expect(legend[legend.length - 1]).toBe('Pas de données');
    expect(await page.locator('#map-table tbody tr').count()).toBe(answer.countries.length);
    await expectCleanText(page);
    await page.screenshot({ path: join(OUTPUT, 'map-desktop.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("tells a country's value on hover and on keyboard focus, and links to its page", async () => {
    const { page, problems } = await open(browser, url('map'));
    await page.waitForSelector('#map-svg[data-drawn]');
    const answer = await mapAnswer({ metric: 'new_cases_smoothed_per_million' });
    const peru = answer.countries.find((c) => c.iso3 === 'PER');
    const brazil = answer.countries.find((c) => c.iso3 === 'BRA');
    expect(peru?.value).toEqual(expect.any(Number));
    await page.locator('#map-svg path[data-iso3="BRA"]').hover();
    // The name in French, the value with its unit, then the day of the value.
    const unit = "Nouveaux cas par million d'habitants (moyenne sur 7 jours)";
    await expect(page.locator('#map-tip').innerText()).resolves.toBe(
      `Brésil\n${figure(brazil!.value!, 'fr-FR')} ${unit}\nle 14 mars 2023`,
    );
    // Tab reaches the shapes (links); the focused one tells its value.
    await page.locator('#map-date').focus();
    let focused = '';
    for (let i = 0; i < 400 && focused !== '#country/Peru'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('href') ?? '');
    }
    expect(focused).toBe('#country/Peru');
    expect(await page.locator('#map-tip').isVisible()).toBe(true);
    expect(await page.locator('#map-tip').innerText()).toBe(
      `Pérou\n${figure(peru!.value!, 'fr-FR')} ${unit}\nle 14 mars 2023`,
    );
    expect(await page.locator('#map-svg a[href="#country/Peru"]').getAttribute('aria-label')).toBe(
      `Pérou : ${figure(peru!.value!, 'fr-FR')} ${unit}, le 14 mars 2023`,
    );
    await page.screenshot({ path: join(OUTPUT, 'map-focus-desktop.png') });
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.getElementById('country-name')?.textContent === 'Pérou',
    );
    expect(page.url()).toBe(url('country/Peru'));
    // A click on a shape opens its country too (Germany: the middle of France's box, which
    // holds French Guiana, is the ocean).
    await page.goto(url('map'));
    await page.waitForSelector('#map-svg[data-drawn]');
    await page.locator('#map-svg path[data-iso3="DEU"]').click();
    await page.waitForFunction(
      () => document.getElementById('country-name')?.textContent === 'Allemagne',
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows another metric, a chosen day and an ISO week, in English', async () => {
    const { page, problems } = await open(browser, url('map', 'en'));
    await page.waitForSelector('#map-svg[data-drawn]');
    expect(await page.locator('#map-legend li').last().innerText()).toBe('No data');
    await page.locator('#map-metric').selectOption('total_cases');
    await page.locator('#map-period').selectOption('week');
    await page.locator('#map-date').fill(day(7));
    await page.locator('#map-form button[type="submit"]').click();
    await page.waitForSelector('#map-svg[data-drawn^="covid:total_cases:week"]');
    // The choices are in the URL: the map can be shared.
    expect(page.url()).toBe(url(`map/covid/total_cases/week/${day(7)}`, 'en'));
    const week = await mapAnswer({ metric: 'total_cases', week: day(7) });
    expect(week.period).toBe('week');
    expect(await page.locator('#map-heading').innerText()).toBe(
      'COVID-19 — Total cases — Week from 6 Mar 2023 to 12 Mar 2023',
    );
    const germany = week.countries.find((c) => c.iso3 === 'DEU');
    await page.locator('#map-svg path[data-iso3="DEU"]').hover();
    expect(await page.locator('#map-tip').innerText()).toBe(
      `Germany\n${figure(germany!.value!, 'en-GB')} Total cases\nWeek from 6 Mar 2023 to 12 Mar 2023`,
    );
    await page.locator('#map-period').selectOption('day');
    await page.locator('#map-form button[type="submit"]').click();
    await page.waitForSelector(`#map-svg[data-drawn="covid:total_cases:day:${day(7)}"]`);
    expect(await page.locator('#map-heading').innerText()).toBe(
      'COVID-19 — Total cases — Data of 8 Mar 2023',
    );
    // A shared link draws what it names.
    await page.goto(url(`map/covid/new_deaths/day/${day(3)}`, 'en'));
    await page.waitForSelector(`#map-svg[data-drawn="covid:new_deaths:day:${day(3)}"]`);
    expect(await page.locator('#map-metric').inputValue()).toBe('new_deaths');
    expect(await page.locator('#map-date').inputValue()).toBe(day(3));
    await page.locator('#map-disease').selectOption('mpox');
    await page.locator('#map-metric').selectOption('total_cases');
    await page.locator('#map-form button[type="submit"]').click();
    await page.waitForSelector('#map-svg[data-drawn^="mpox:"]');
    // MPOX was written for 20 countries only: they alone are coloured.
    const coloured = (await fills(page)).filter(([, fill]) => fill !== NO_DATA_COLOUR);
    expect(coloured).toHaveLength(20);
    await expectCleanText(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone (375 px): nothing wider than the window', async () => {
    const { page, problems } = await open(browser, url('map'), PHONE);
    await page.waitForSelector('#map-svg[data-drawn]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    await page.screenshot({ path: join(OUTPUT, 'map-phone.png') });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a country per million people and as the 7-day average, the unit said', async () => {
    const { page, problems } = await open(browser, url('country/Canada'));
    await page.waitForSelector('#country-mpox canvas');
    const weekly = (await bed.t.http.get('/api/covid/public/country/Canada/weekly')).body as Weekly;
    const last = weekly.weeks.length - 1;
    const drawnLast = async () =>
      JSON.parse(
        (await page.locator('#country-cases').getAttribute('data-last')) ?? '[]',
      ) as number[];
    // The last week has 2 days: its line is the 7-day average at its last day, not the sum / 2;
    // the third series draws the week over its bar as incomplete.
    expect(weekly.days[last]).toBe(2);
    expect(await drawnLast()).toEqual([
      weekly.new_cases[last],
      weekly.new_cases_smoothed[last],
      weekly.new_cases[last],
    ]);
    await page.locator('#country-view').selectOption('per_million');
    await page.waitForFunction(() =>
      document.querySelector('#country-cases .u-title')?.textContent?.includes('par million'),
    );
    const perMillion = weekly.new_cases_per_million[last]!;
    expect(perMillion).toBeCloseTo((weekly.new_cases[last] * 1e6) / weekly.population!, 2);
    expect(await drawnLast()).toEqual([
      perMillion,
      Math.round((weekly.new_cases_smoothed[last]! * 1e9) / weekly.population!) / 1000,
      perMillion,
    ]);
    expect(await page.locator('#country-cases .u-legend').innerText()).toContain(
      "par semaine et par million d'habitants",
    );
    await page.locator('#country-view').selectOption('smoothed_per_million');
    await page.waitForFunction(
      () =>
        document.querySelector('#country-cases .u-title')?.textContent ===
        "Canada — Nouveaux cas (par jour et par million d'habitants, moyenne sur 7 jours)",
    );
    expect(await drawnLast()).toEqual([
      Math.round((weekly.new_cases_smoothed[last]! * 1e9) / weekly.population!) / 1000,
    ]);
    const [painted] = await paintedPixels(page, '#country-cases');
    expect(painted).toBeGreaterThan(1000);
    await expectCleanText(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('compares countries of different sizes per million people, in French and English', async () => {
    for (const lang of ['fr', 'en']) {
      const { page, problems } = await open(browser, url('compare', lang));
      await page.locator('#compare-1').fill('Peru');
      await page.locator('#compare-2').fill('France');
      await page.locator('#compare-mode').selectOption('daily');
      await page.locator('#compare-form button[type="submit"]').click();
      await page.waitForSelector('#compare-chart canvas');
      const raw = (await page.locator('#compare-chart').getAttribute('data-last')) ?? '';
      await page.locator('#compare-view').selectOption('smoothed_per_million');
      await page.locator('#compare-form button[type="submit"]').click();
      const unit =
        lang === 'fr'
          ? "par jour et par million d'habitants, moyenne sur 7 jours"
          : 'per day per million people, 7-day average';
      await page.waitForFunction(
        (text) => document.querySelector('#compare-chart .u-title')?.textContent?.includes(text),
        unit,
      );
      const perMillion = JSON.parse(
        (await page.locator('#compare-chart').getAttribute('data-last')) ?? '[]',
      ) as number[];
      expect(JSON.stringify(perMillion)).not.toBe(raw);
      for (const [i, name] of ['Peru', 'France'].entries()) {
        const weekly = (await bed.t.http.get(`/api/covid/public/country/${name}/weekly`))
          .body as Weekly;
        const smoothed = weekly.new_cases_smoothed[weekly.weeks.length - 1]!;
        expect(perMillion[i]).toBe(Math.round((smoothed * 1e9) / weekly.population!) / 1000);
      }
      if (lang === 'fr') await page.screenshot({ path: join(OUTPUT, 'compare-per-million.png') });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('says when a place has no population, and draws no per-million values for it', async () => {
    const written = await bed.t.http
      .post('/api/covid/data/bulk')
      .set(bed.t.auth())
      .send([
        {
          date: day(0),
          country: 'Atlantis',
          new_cases: 5,
          total_cases: 5,
          new_deaths: 0,
          total_deaths: 0,
        },
      ]);
    expect(written.status).toBe(200);
    const { page } = await open(browser, url('country/Atlantis'));
    await page.waitForSelector('#country-cases canvas');
    await page.locator('#country-view').selectOption('per_million');
    await page.waitForFunction(() => document.getElementById('country-message')?.textContent);
    expect(await page.locator('#country-message').innerText()).toBe(
      "Population inconnue : pas de valeurs par million d'habitants pour Atlantis.",
    );
    expect(await page.locator('#country-cases').getAttribute('data-last')).toBe('[null,null,null]');
    await expectCleanText(page);
    await page.close();
  });
});
