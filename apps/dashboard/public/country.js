// One country: weekly cases and deaths, cumulative totals and MPOX, over a chosen range and in a
// chosen view (as published, per million, 7-day average), the weeks with a negative or corrected
// figure marked, and the latest corrections; and the list of countries the pickers suggest.
import { ApiProblem, api, problemText, weeklyPath } from './api.js';
import { COLORS, clearChart, drawChart, toTime, weeklyWithAverage } from './charts.js';
import { fillCorrections, loadCorrections, weekMarks } from './corrections.js';
import { DAY_MS, byName, countryName, t } from './language.js';
import { $, say } from './page.js';
import {
  axisUnit,
  fillViewSelect,
  lacksPopulation,
  totalUnit,
  totalValues,
  viewOf,
} from './views.js';

/** The public list's names, kept to label the suggestions again when the language changes. */
let listed = [];

/** The picker's suggestions: the names in the page's language (the API resolves either). */
export function labelCountryList() {
  const datalist = $('country-list');
  datalist.textContent = '';
  for (const name of listed.map(countryName).sort(byName)) {
    const option = document.createElement('option');
    option.value = name;
    datalist.append(option);
  }
}

async function fillCountryList() {
  listed = (await api('/api/covid/public/countries')).map(({ country }) => country);
  labelCountryList();
}

// One load shared by every caller: two views routed at once (the page's first route and a
// hash change) each filled the list, and it showed every country twice. Tried again after a
// failure.
let listLoading;
export function loadCountryList() {
  if (!listLoading) {
    listLoading = fillCountryList().catch((error) => {
      listLoading = undefined;
      throw error;
    });
  }
  return listLoading;
}

const CHARTS = [
  'country-cases',
  'country-deaths',
  'country-total-cases',
  'country-total-deaths',
  'country-mpox',
];

function rangeStart(answer, range) {
  if (range === 'all' || answer.weeks.length === 0) return null;
  const last = answer.weeks[answer.weeks.length - 1];
  return new Date(Date.parse(`${last}T00:00:00Z`) - Number(range) * DAY_MS)
    .toISOString()
    .slice(0, 10);
}

export async function showCountry(name) {
  const wanted = (name || '').trim();
  say('country-message', '');
  say('country-mpox-message', '');
  say('country-name', '');
  if (!wanted) return;
  $('country-input').value = wanted;
  let covid, corrections;
  try {
    // The corrections asked for at once, by the name typed as the weekly route is.
    [covid, corrections] = await Promise.all([
      api(weeklyPath('covid', wanted)),
      loadCorrections('covid', wanted),
    ]);
  } catch (error) {
    say('country-message', problemText(error));
    say('country-name', '');
    for (const id of CHARTS) clearChart(id);
    fillCorrections('country-corrections', 'country-corrections-note', null);
    fillCorrections('mpox-corrections', 'mpox-corrections-note', null);
    return;
  }
  say('country-name', countryName(covid.country));
  const view = viewOf($('country-view'));
  if (lacksPopulation(covid, view))
    say('country-message', `${t('noPopulation')} ${countryName(covid.country)}.`);
  const from = rangeStart(covid, $('country-range').value);
  for (const [id, key, color] of [
    ['country-cases', 'new_cases', COLORS[0]],
    ['country-deaths', 'new_deaths', COLORS[1]],
  ]) {
    const chart = weeklyWithAverage(covid, key, color, from, view);
    drawChart(
      id,
      `${countryName(covid.country)} — ${chart.label}`,
      chart.times,
      chart.series,
      chart.units,
      weekMarks(covid, key, corrections.corrections, from),
    );
  }
  fillCorrections('country-corrections', 'country-corrections-note', corrections);
  const keep = covid.weeks.map((w) => !from || w >= from);
  const pick = (values) => values.filter((_, i) => keep[i]);
  const unit = totalUnit(view);
  // Cases and deaths each on their own chart: on one chart with two axes their lines seemed to
  // meet, though they count things a hundred times apart.
  for (const [id, key, label, color] of [
    ['country-total-cases', 'total_cases', 'totalCases', COLORS[0]],
    ['country-total-deaths', 'total_deaths', 'totalDeaths', COLORS[1]],
  ]) {
    drawChart(
      id,
      `${countryName(covid.country)} — ${t(label)} (${unit})`,
      pick(covid.weeks).map(toTime),
      [{ label: `${t(label)} (${unit})`, values: pick(totalValues(covid, key, view)), color }],
      { y: axisUnit(view, 'total') },
    );
  }
  try {
    const [mpox, mpoxCorrections] = await Promise.all([
      api(weeklyPath('mpox', covid.country)),
      loadCorrections('mpox', covid.country),
    ]);
    const mpoxFrom = rangeStart(mpox, $('country-range').value);
    const mpoxCases = weeklyWithAverage(mpox, 'new_cases', COLORS[3], mpoxFrom, view);
    drawChart(
      'country-mpox',
      `MPOX — ${mpoxCases.label}`,
      mpoxCases.times,
      mpoxCases.series,
      mpoxCases.units,
      weekMarks(mpox, 'new_cases', mpoxCorrections.corrections, mpoxFrom),
    );
    fillCorrections('mpox-corrections', 'mpox-corrections-note', mpoxCorrections);
  } catch (error) {
    clearChart('country-mpox');
    fillCorrections('mpox-corrections', 'mpox-corrections-note', null);
    say(
      'country-mpox-message',
      error instanceof ApiProblem && error.status === 404 ? t('noMpox') : problemText(error),
    );
  }
}

$('country-form').addEventListener('submit', (event) => {
  event.preventDefault();
  location.hash = `country/${encodeURIComponent($('country-input').value.trim())}`;
});
for (const control of ['country-range', 'country-view']) {
  $(control).addEventListener('change', () => {
    if ($('country-input').value.trim()) void showCountry($('country-input').value);
  });
}
fillViewSelect($('country-view'));
