// Up to four countries on one chart: cases or deaths, cumulative or new per day; as published, per
// million people, or as the 7-day average (views.js), so that countries of any size compare; over
// a date range, on a linear or log scale. The choices are in the URL, so a comparison is shared.
import { api, problemText, weeklyPath } from './api.js';
import { COLORS, clearChart, drawChart, toTime } from './charts.js';
import { countryName, t } from './language.js';
import { $, say } from './page.js';
import {
  VIEWS,
  axisUnit,
  fillViewSelect,
  isSmoothed,
  lacksPopulation,
  newUnit,
  newValues,
  sevenDayAverage,
  totalUnit,
  totalValues,
  viewOf,
} from './views.js';

const FIGURES = { cases: ['total_cases', 'new_cases'], deaths: ['total_deaths', 'new_deaths'] };
const MODES = ['total', 'daily'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INPUTS = [1, 2, 3, 4].map((i) => `compare-${i}`);

/** One country's values: totals, or new per day (the 7-day average at each week's end). */
function valuesOf(answer, figure, daily, view) {
  const [total, fresh] = FIGURES[figure];
  if (!daily) return totalValues(answer, total, view);
  const values = newValues(answer, fresh, view);
  return isSmoothed(view) ? values : sevenDayAverage(answer, fresh, view, values);
}

/** The controls' choices. */
function choices() {
  const figure = $('compare-figure').value in FIGURES ? $('compare-figure').value : 'cases';
  return {
    names: INPUTS.map((id) => $(id).value.trim()).filter(Boolean),
    figure,
    mode: MODES.includes($('compare-mode').value) ? $('compare-mode').value : 'total',
    view: viewOf($('compare-view')),
    from: $('compare-from').value,
    to: $('compare-to').value,
    log: $('compare-log').checked,
  };
}

/** The choices as the URL's fragment: `compare/countries=France,Peru&figure=deaths&...`. */
function linkOf(c) {
  const query = new URLSearchParams({ countries: c.names.join(',') });
  if (c.figure !== 'cases') query.set('figure', c.figure);
  if (c.mode !== 'total') query.set('mode', c.mode);
  if (c.view !== VIEWS[0]) query.set('view', c.view);
  if (c.from) query.set('from', c.from);
  if (c.to) query.set('to', c.to);
  if (c.log) query.set('scale', 'log');
  return `compare/${query.toString()}`;
}

/** The controls set from a link's choices; a value that is not one of a control's is left out. */
function applyLink(fragment) {
  const query = new URLSearchParams(fragment);
  const names = (query.get('countries') ?? '').split(',').map((n) => n.trim());
  for (const [i, id] of INPUTS.entries()) $(id).value = names[i] ?? '';
  $('compare-figure').value = query.get('figure') in FIGURES ? query.get('figure') : 'cases';
  $('compare-mode').value = MODES.includes(query.get('mode')) ? query.get('mode') : 'total';
  $('compare-view').value = VIEWS.includes(query.get('view')) ? query.get('view') : VIEWS[0];
  $('compare-from').value = DATE.test(query.get('from') ?? '') ? query.get('from') : '';
  $('compare-to').value = DATE.test(query.get('to') ?? '') ? query.get('to') : '';
  $('compare-log').checked = query.get('scale') === 'log';
}

/** The week (named by its Sunday) overlaps the range: its Monday is not after `to`. */
const inRange = (week, from, to) =>
  (!from || week >= from) && (!to || toTime(week) - 6 * 86400 <= toTime(to));

async function drawCompare() {
  say('compare-message', '');
  const c = choices();
  if (c.names.length === 0) {
    clearChart('compare-chart');
    say('compare-message', t('pickOne'));
    return;
  }
  let answers;
  try {
    answers = await Promise.all(c.names.map((n) => api(weeklyPath('covid', n))));
  } catch (error) {
    clearChart('compare-chart');
    say('compare-message', problemText(error));
    return;
  }
  const daily = c.mode === 'daily';
  const unit = daily ? newUnit(c.view, false) : totalUnit(c.view);
  const missing = answers.filter((h) => lacksPopulation(h, c.view)).map((h) => h.country);
  if (missing.length > 0)
    say('compare-message', `${t('noPopulation')} ${missing.map(countryName).join(', ')}.`);
  const weeks = [...new Set(answers.flatMap((h) => h.weeks))]
    .filter((w) => inRange(w, c.from, c.to))
    .sort();
  const series = answers.map((h, i) => {
    const at = new Map(h.weeks.map((w, j) => [w, j]));
    const values = valuesOf(h, c.figure, daily, c.view);
    return {
      label: countryName(h.country),
      color: COLORS[i],
      // A log scale has no place for zero or below: those weeks are gaps.
      values: weeks.map((w) => {
        const v = at.has(w) ? values[at.get(w)] : null;
        return c.log && !(v > 0) ? null : v;
      }),
    };
  });
  const [total, fresh] = FIGURES[c.figure];
  const figureName = daily
    ? t(fresh === 'new_cases' ? 'newCases' : 'newDeaths')
    : t(total === 'total_cases' ? 'totalCases' : 'totalDeaths');
  drawChart(
    'compare-chart',
    t('compareTitle')(figureName, unit),
    weeks.map(toTime),
    series,
    { y: axisUnit(c.view, daily ? 'day' : 'total') },
    [],
    { log: c.log },
  );
  $('compare-chart').dataset.scale = c.log ? 'log' : 'linear';
}

/** The compare view of a link's choices (none: the controls' as they are). */
export function showCompare(fragment) {
  if (fragment !== undefined) applyLink(fragment);
  return drawCompare();
}

$('compare-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const link = linkOf(choices());
  if (location.hash === `#${link}`) void drawCompare();
  else location.hash = link;
});
fillViewSelect($('compare-view'));
