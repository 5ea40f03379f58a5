import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import {
  OUTPUT,
  PHONE,
  expectCleanText,
  open,
  serveToBrowser,
} from '../../support/dashboard-browser';
import { TestApp, bootTestApp } from '../../support/test-app';

/*
 * The country page's marks and corrections in headless Chromium: figures written through the
 * API, one day with negative new cases, then one record corrected (PUT); the weekly route's
 * `flags` and the corrections route drive the marks, their tips and the table. A long range
 * with many flagged weeks checks that marks too close together are drawn as one.
 */
const PORT = 3244;
const FIRST_DAY = Date.UTC(2023, 1, 27); // A Monday: weeks end on 03-05, 03-12, 03-19, 03-26.
const DAYS = 28;
const NEGATIVE_DAY = '2023-03-08';
const CORRECTED_DAY = '2023-03-15';
const day = (i: number) => new Date(FIRST_DAY + i * 86_400_000).toISOString().slice(0, 10);
// Two years of Brazil (Monday 2021-01-04 on): a negative Wednesday every week the first year,
// every other week the second, many more marks than the chart has room for side by side.
const LONG_FIRST_DAY = Date.UTC(2021, 0, 4);
const LONG_WEEKS = 104;

interface Correction {
  at: string;
  date: string;
  field: string;
  old: number | null;
  new: number | null;
  change: string;
}

/** 100 new cases and 1 new death a day, but -5 cases on the negative day if `negative`. */
function records(country: string, negative = false) {
  let cases = 0;
  let deaths = 0;
  return Array.from({ length: DAYS }, (_, i) => {
    const newCases = negative && day(i) === NEGATIVE_DAY ? -5 : 100;
    cases += newCases;
    deaths += 1;
    return {
      date: day(i),
      country,
      new_cases: newCases,
      total_cases: cases,
      new_deaths: 1,
      total_deaths: deaths,
    };
  });
}

/** Brazil's long range: -5 cases on the Wednesdays `negativeWeek` picks, else 100 a day. */
function longRecords(negativeWeek: (week: number) => boolean) {
  let cases = 0;
  return Array.from({ length: LONG_WEEKS * 7 }, (_, i) => {
    const week = Math.floor(i / 7);
    const newCases = i % 7 === 2 && negativeWeek(week) ? -5 : 100;
    cases += newCases;
    return {
      date: new Date(LONG_FIRST_DAY + i * 86_400_000).toISOString().slice(0, 10),
      country: 'Brazil',
      new_cases: newCases,
      total_cases: cases,
      new_deaths: 1,
      total_deaths: i + 1,
    };
  });
}

/** The pairs of visible marks of a chart whose boxes overlap, by their `data-key`. */
function overlaps(page: Page, chart: string): Promise<string[]> {
  return page.$$eval(`#${chart} .mark`, (buttons) => {
    const boxes = buttons
      .map((b) => ({ key: String(b.getAttribute('data-key')), box: b.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0);
    const found: string[] = [];
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        if (
          a.box.left < b.box.right &&
          b.box.left < a.box.right &&
          a.box.top < b.box.bottom &&
          b.box.top < a.box.bottom
        )
          found.push(`${a.key} ${b.key}`);
    return found;
  });
}

/** The marks of a chart: their week (`data-key`) and glyph classes. */
function marks(page: Page, chart: string): Promise<[string, string][]> {
  return page.$$eval(`#${chart} .mark`, (buttons) =>
    buttons.map((b): [string, string] => [
      String(b.getAttribute('data-key')),
      String(b.getAttribute('class')),
    ]),
  );
}

describe('dashboard: weeks with negative or corrected figures, and the latest corrections', () => {
  let t: TestApp;
  let browser: Browser;
  const url = (fragment: string, lang = '') =>
    `http://127.0.0.1:${PORT}/dashboard${lang ? `?lang=${lang}` : ''}#${fragment}`;

  beforeAll(async () => {
    t = await bootTestApp();
    // COVID: Chile with a negative day, Peru without, Brazil's long range; MPOX: Chile and
    // Brazil without.
    const covid = [
      ...records('Chile', true),
      ...records('Peru'),
      ...longRecords((week) => week < 52 || week % 2 === 0),
    ];
    for (const [disease, body] of [
      ['covid', covid],
      ['mpox', [...records('Chile'), ...records('Brazil')]],
    ] as const) {
      const written = await t.http.post(`/api/${disease}/data/bulk`).set(t.auth()).send(body);
      expect(written.status).toBe(200);
    }
    // Then Chile's day in the third week gets 10 more cases: one correction per changed figure.
    const listed = await t.http.get('/api/covid/data?country=Chile&limit=100').set(t.auth());
    expect(listed.status).toBe(200);
    const row = (listed.body as { id: number; date: string }[]).find(
      (r) => r.date === CORRECTED_DAY,
    );
    const before = records('Chile', true).find((r) => r.date === CORRECTED_DAY);
    const updated = await t.http
      .put(`/api/covid/data/${row?.id}`)
      .set(t.auth())
      .send({ ...before, new_cases: 110, total_cases: (before?.total_cases ?? 0) + 10 });
    expect(updated.status).toBe(200);
    browser = await serveToBrowser(t, PORT);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("answers the flags and the corrections the page shows (the back end's contract)", async () => {
    const weekly = await t.http.get('/api/covid/public/country/Chile/weekly');
    expect(weekly.body.weeks).toEqual(['2023-03-05', '2023-03-12', '2023-03-19', '2023-03-26']);
    expect(weekly.body.flags).toEqual([[], ['negative_new_cases'], ['corrected'], []]);
    const answer = await t.http.get('/api/covid/public/country/Chile/corrections');
    expect(answer.status).toBe(200);
    const corrections = (answer.body as { country: string; corrections: Correction[] }).corrections;
    expect(answer.body.country).toBe('Chile');
    expect(corrections.map((c) => [c.date, c.field, c.old, c.new, c.change]).sort()).toEqual([
      [CORRECTED_DAY, 'new_cases', 100, 110, 'update'],
      [CORRECTED_DAY, 'total_cases', 1595, 1605, 'update'],
    ]);
  });

  it('marks exactly the flagged weeks, tells the old and new values on focus and hover', async () => {
    const { page, problems } = await open(browser, url('country/Chile'));
    await page.waitForSelector('#country-mpox canvas');
    await page.waitForSelector('#country-cases .mark');
    // New cases: the negative week and the corrected one; new deaths: the corrected one only.
    expect(await marks(page, 'country-cases')).toEqual([
      ['2023-03-12', 'mark negative'],
      ['2023-03-19', 'mark corrected'],
    ]);
    expect(await marks(page, 'country-deaths')).toEqual([['2023-03-19', 'mark corrected']]);
    expect(await page.locator('#country-total-cases .mark').count()).toBe(0);
    expect(await page.locator('#country-total-deaths .mark').count()).toBe(0);
    // MPOX was never corrected and has no negative day.
    expect(await page.locator('#country-mpox .mark').count()).toBe(0);
    expect(await page.locator('#country-cases .mark-legend > span').allInnerTexts()).toEqual([
      '− semaine avec un chiffre quotidien négatif',
      'C semaine avec un chiffre corrigé après publication',
    ]);
    expect(await page.locator('#country-deaths .mark-legend > span').allInnerTexts()).toEqual([
      'C semaine avec un chiffre corrigé après publication',
    ]);

    // Keyboard focus shows the tip; Escape hides it; Shift+Tab goes to the mark before.
    const corrected = page.locator('#country-cases .mark.corrected');
    await corrected.focus();
    const tip = page.locator('#country-cases .tip');
    expect(await tip.isVisible()).toBe(true);
    const lines = [
      'Semaine du 13 mars 2023 au 19 mars 2023',
      'Chiffres corrigés après publication',
      ...(await cellsInOrder(t)).map(
        ([field, from, to]) => `15 mars 2023, ${field} : ${from} → ${to}`,
      ),
    ];
    expect((await tip.innerText()).split('\n')).toEqual(lines);
    expect(await corrected.getAttribute('aria-label')).toBe(lines.join(' ; '));
    await page.screenshot({ path: join(OUTPUT, 'country-corrections-desktop.png') });
    await page.keyboard.press('Escape');
    expect(await tip.isHidden()).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.key)).toBe(
      '2023-03-12',
    );
    expect((await tip.innerText()).split('\n')).toEqual([
      'Semaine du 6 mars 2023 au 12 mars 2023',
      'Nouveaux cas négatifs un jour',
    ]);
    await page.locator('#country-deaths .mark').hover();
    const deathsTip = page.locator('#country-deaths .tip');
    expect(await deathsTip.isVisible()).toBe(true);
    expect((await deathsTip.innerText()).split('\n')).toEqual(lines);
    await expectCleanText(page);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('groups the marks that would overlap on a long range into one, again on resizing', async () => {
    const { page, problems } = await open(browser, url('country/Brazil'));
    await page.waitForSelector('#country-cases .mark');
    await page.selectOption('#country-range', 'all');
    // The first flagged week (the first one shown, alone or first of a group) is a year back.
    await page.waitForSelector('#country-cases .mark[data-key="2021-01-10"]');
    expect(await overlaps(page, 'country-cases')).toEqual([]);
    const clusters = page.locator('#country-cases .mark.cluster');
    expect(await clusters.count()).toBeGreaterThan(0);
    // Fewer buttons to Tab through than flagged weeks (78), none hidden under another.
    expect(await page.locator('#country-cases .mark').count()).toBeLessThan(78);

    const first = page.locator('#country-cases .mark[data-key="2021-01-10"]');
    expect(await first.getAttribute('class')).toBe('mark negative cluster');
    await first.focus();
    const tip = page.locator('#country-cases .tip');
    expect(await tip.isVisible()).toBe(true);
    const lines = (await tip.innerText()).split('\n');
    const weeks = lines.length - 1;
    expect(weeks).toBeGreaterThan(1);
    expect(lines[0]).toMatch(
      new RegExp(`^${weeks} semaines du 4 janv\\. 2021 au \\d+ janv\\. 2021$`),
    );
    expect(lines[1]).toBe(
      'Semaine du 4 janv. 2021 au 10 janv. 2021 : Nouveaux cas négatifs un jour',
    );
    expect(await first.getAttribute('aria-label')).toBe(lines.join(' ; '));
    await page.screenshot({ path: join(OUTPUT, 'country-long-range-desktop.png') });

    // On a phone, many more weeks per mark: grouped again, still apart, the tip's list capped.
    const wide = await page.locator('#country-cases .mark').count();
    await page.setViewportSize(PHONE);
    await page.waitForFunction(
      (before) => document.querySelectorAll('#country-cases .mark').length < before,
      wide,
    );
    expect(await overlaps(page, 'country-cases')).toEqual([]);
    await first.focus();
    const capped = (await tip.innerText()).split('\n');
    const count = Number(/^(\d+) semaines du 4 janv\. 2021 au /.exec(capped[0])?.[1]);
    expect(count).toBeGreaterThan(8);
    expect(capped).toHaveLength(9);
    expect(capped[1]).toBe(lines[1]);
    expect(capped[8]).toBe(`… et ${count - 7} autres`);
    await page.screenshot({ path: join(OUTPUT, 'country-long-range-phone.png') });
    await expectCleanText(page);
    expect(problems).toEqual([]);

    const english = await open(browser, url('country/Brazil', 'en'));
    await english.page.waitForSelector('#country-cases .mark');
    await english.page.selectOption('#country-range', 'all');
    const firstInEnglish = english.page.locator('#country-cases .mark[data-key="2021-01-10"]');
    await firstInEnglish.focus();
    const inEnglish = (await english.page.locator('#country-cases .tip').innerText()).split('\n');
    expect(inEnglish[0]).toMatch(new RegExp(`^${weeks} weeks from 4 Jan 2021 to \\d+ Jan 2021$`));
    expect(inEnglish[1]).toBe('Week from 4 Jan 2021 to 10 Jan 2021: Negative new cases on a day');
    expect(english.problems).toEqual([]);
    await english.page.close();
    await page.close();
  });

  it("lists the country's latest corrections, and says when there is none", async () => {
    const { page, problems } = await open(browser, url('country/Chile'));
    await page.waitForSelector('#country-corrections tbody tr');
    const answer = (await t.http.get('/api/covid/public/country/Chile/corrections')).body as {
      corrections: Correction[];
    };
    const fields: Record<string, string> = {
      new_cases: 'Nouveaux cas',
      total_cases: 'Total des cas',
    };
    const fr = new Intl.NumberFormat('fr-FR');
    // The browser runs in UTC: the moment of the change as fr-FR writes it there.
    const when = (at: string) => new Date(at).toLocaleString('fr-FR', { timeZone: 'UTC' });
    expect(await page.locator('#country-corrections thead th').allInnerTexts()).toEqual([
      'Date',
      'Chiffre',
      'Avant',
      'Après',
      'Modification',
      'Quand',
    ]);
    const rows = await page.$$eval('#country-corrections tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(rows).toEqual(
      answer.corrections.map((c) => [
        '15 mars 2023',
        fields[c.field],
        fr.format(c.old ?? NaN),
        fr.format(c.new ?? NaN),
        'correction',
        when(c.at),
      ]),
    );
    expect(rows.map((r) => r.slice(1, 4)).sort()).toEqual([
      ['Nouveaux cas', '100', '110'],
      ['Total des cas', '1\u202f595', '1\u202f605'],
    ]);
    expect(await page.locator('#country-corrections-note').innerText()).toBe('');
    expect(await page.locator('#mpox-corrections-note').innerText()).toBe(
      'Aucune correction publiée pour ce pays.',
    );
    expect(await page.locator('#mpox-corrections').isHidden()).toBe(true);
    expect(problems).toEqual([]);

    // Peru: nothing corrected, nothing negative (no MPOX either).
    await page.goto(url('country/Peru'));
    await page.waitForFunction(
      () => document.getElementById('country-name')?.textContent === 'Pérou',
    );
    await page.waitForFunction(
      () => document.getElementById('country-corrections-note')?.textContent !== '',
    );
    expect(await page.locator('#country-corrections-note').innerText()).toBe(
      'Aucune correction publiée pour ce pays.',
    );
    expect(await page.locator('#country-corrections').isHidden()).toBe(true);
    expect(await page.locator('#country-corrections tbody tr').count()).toBe(0);
    expect(await page.locator('.mark').count()).toBe(0);
    await page.close();
  });

  it('says it in English too', async () => {
    const { page, problems } = await open(browser, url('country/Chile', 'en'));
    await page.waitForSelector('#country-corrections tbody tr');
    await page.locator('#country-cases .mark.negative').focus();
    expect((await page.locator('#country-cases .tip').innerText()).split('\n')).toEqual([
      'Week from 6 Mar 2023 to 12 Mar 2023',
      'Negative new cases on a day',
    ]);
    expect(await page.locator('#country-corrections thead th').allInnerTexts()).toEqual([
      'Date',
      'Figure',
      'Old',
      'New',
      'Change',
      'When',
    ]);
    expect(await page.locator('#mpox-corrections-note').innerText()).toBe(
      'No correction published for this country.',
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** The corrections' figures in the order the page lists them in a tip (oldest change first). */
async function cellsInOrder(t: TestApp): Promise<[string, string, string][]> {
  const names: Record<string, string> = { new_cases: 'Nouveaux cas', total_cases: 'Total des cas' };
  const fr = new Intl.NumberFormat('fr-FR');
  const answer = (await t.http.get('/api/covid/public/country/Chile/corrections')).body as {
    corrections: Correction[];
  };
  return [...answer.corrections]
    .reverse()
    .map((c) => [names[c.field], fr.format(c.old ?? NaN), fr.format(c.new ?? NaN)]);
}
