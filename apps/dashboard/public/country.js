// One country: weekly cases and deaths, cumulative totals and MPOX, over a chosen range; and the
// list of countries the pickers suggest.
import { ApiProblem, api, problemText, weeklyPath } from './api.js';
import { COLORS, clearChart, drawChart, toTime, weeklyWithAverage } from './charts.js';
import { DAY_MS, t } from './language.js';
import { $, say } from './page.js';

async function fillCountryList() {
  const list = await api('/api/covid/public/countries');
  const datalist = $('country-list');
  for (const { country } of list) {
    const option = document.createElement('option');
    option.value = country;
    datalist.append(option);
  }
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

function rangeStart(history, range) {
  if (range === 'all' || history.weeks.length === 0) return null;
  const last = history.weeks[history.weeks.length - 1];
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
  let covid;
  try {
    covid = await api(weeklyPath('covid', wanted));
  } catch (error) {
    say('country-message', problemText(error));
    say('country-name', '');
    for (const id of ['country-cases', 'country-deaths', 'country-totals', 'country-mpox'])
      clearChart(id);
    return;
  }
  say('country-name', covid.country);
  const from = rangeStart(covid, $('country-range').value);
  const cases = weeklyWithAverage(covid, 'new_cases', COLORS[0], from);
  drawChart('country-cases', `${covid.country} — ${t('weeklyCases')}`, cases.times, cases.series);
  const deaths = weeklyWithAverage(covid, 'new_deaths', COLORS[1], from);
  drawChart(
    'country-deaths',
    `${covid.country} — ${t('weeklyDeaths')}`,
    deaths.times,
    deaths.series,
  );
  const keep = covid.weeks.map((w) => !from || w >= from);
  const pick = (values) => values.filter((_, i) => keep[i]);
  drawChart(
    'country-totals',
    `${covid.country} — ${t('totalCases')} / ${t('totalDeaths')}`,
    pick(covid.weeks).map(toTime),
    [
      { label: t('totalCases'), values: pick(covid.total_cases), color: COLORS[0] },
      {
        label: t('totalDeaths'),
        values: pick(covid.total_deaths),
        color: COLORS[1],
        scale: 'avg',
      },
    ],
  );
  try {
    const mpox = await api(weeklyPath('mpox', covid.country));
    const mpoxCases = weeklyWithAverage(
      mpox,
      'new_cases',
      COLORS[3],
      rangeStart(mpox, $('country-range').value),
    );
    drawChart('country-mpox', `MPOX — ${t('weeklyCases')}`, mpoxCases.times, mpoxCases.series);
  } catch (error) {
    clearChart('country-mpox');
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
$('country-range').addEventListener('change', () => {
  if ($('country-input').value.trim()) void showCountry($('country-input').value);
});
