// The world overview: totals, the latest data's age, the world's weekly charts and the table of
// the most affected countries.
import { api, problemText } from './api.js';
import { COLORS, drawChart, weeklyWithAverage } from './charts.js';
import { DAY_MS, countryName, currentLanguage, formatDate, num, t } from './language.js';
import { $, say } from './page.js';

let topRows = [];
let topSort = { key: 'total_cases', descending: true };
const daysSince = (date) =>
  Math.max(0, Math.floor((Date.now() - Date.parse(`${date}T00:00:00Z`)) / DAY_MS));
const freshness = (date) =>
  date ? `${formatDate(date)} (${t('ago')(daysSince(date))})` : t('none');

export async function showOverview() {
  say('overview-message', '');
  try {
    const [totals, mpox, countries, world, mpoxWorld] = await Promise.all([
      api('/api/covid/public/totals'),
      api('/api/mpox/public/summary'),
      api('/api/covid/public/countries'),
      api('/api/covid/public/weekly'),
      api('/api/mpox/public/weekly'),
    ]);
    $('covid-cases').textContent = num(totals.total_cases);
    $('covid-deaths').textContent = num(totals.total_deaths);
    const covidLast = countries.reduce((max, c) => (c.date > max ? c.date : max), '');
    $('covid-date').textContent = freshness(covidLast);
    $('mpox-cases').textContent = num(mpox.total_cases);
    $('mpox-deaths').textContent = num(mpox.total_deaths);
    $('mpox-date').textContent = freshness(mpox.last_date);
    topRows = countries;
    renderTop();
    const cases = weeklyWithAverage(world, 'new_cases', COLORS[0]);
    drawChart('world-cases', t('weeklyCases'), cases.times, cases.series);
    const deaths = weeklyWithAverage(world, 'new_deaths', COLORS[1]);
    drawChart('world-deaths', t('weeklyDeaths'), deaths.times, deaths.series);
    const mpoxCases = weeklyWithAverage(mpoxWorld, 'new_cases', COLORS[3]);
    drawChart('world-mpox', `MPOX — ${t('weeklyCases')}`, mpoxCases.times, mpoxCases.series);
    performance.mark('overview-ready');
  } catch (error) {
    say('overview-message', problemText(error));
  }
}

function renderTop() {
  const { key, descending } = topSort;
  const sorted = [...topRows].sort((a, b) => {
    const text = (row) => (key === 'country' ? countryName(row.country) : String(row[key]));
    const order =
      typeof a[key] === 'number'
        ? a[key] - b[key]
        : text(a).localeCompare(text(b), currentLanguage());
    return descending ? -order : order;
  });
  const body = $('top').tBodies[0];
  body.textContent = '';
  for (const row of sorted.slice(0, 20)) {
    const tr = body.insertRow();
    const link = document.createElement('a');
    link.href = `#country/${encodeURIComponent(row.country)}`;
    link.textContent = countryName(row.country);
    tr.insertCell().append(link);
    for (const value of [num(row.total_cases), num(row.total_deaths)]) {
      const cell = tr.insertCell();
      cell.className = 'num';
      cell.textContent = value;
    }
    tr.insertCell().textContent = formatDate(row.date);
  }
  for (const th of $('top').tHead.rows[0].cells) {
    const column = th.querySelector('button').dataset.sort;
    th.setAttribute(
      'aria-sort',
      column === key ? (descending ? 'descending' : 'ascending') : 'none',
    );
  }
}

$('top').tHead.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-sort]');
  if (!button) return;
  const key = button.dataset.sort;
  topSort = { key, descending: topSort.key === key ? !topSort.descending : key !== 'country' };
  renderTop();
});
