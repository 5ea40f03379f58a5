// Up to four countries on one chart: cumulative totals, or new cases per day; as published, per
// million people, or as the 7-day average (views.js), so that countries of any size compare.
import { api, problemText, weeklyPath } from './api.js';
import { COLORS, clearChart, drawChart, toTime } from './charts.js';
import { t } from './language.js';
import { $, say } from './page.js';
import {
  axisUnit,
  fillViewSelect,
  isSmoothed,
  lacksPopulation,
  newUnit,
  newValues,
  perDayOfWeek,
  totalUnit,
  totalValues,
  viewOf,
} from './views.js';

/** One country's values: totals, or new cases per day (the week's average, or the 7-day one). */
function valuesOf(history, daily, view) {
  if (!daily) return totalValues(history, 'total_cases', view);
  const values = newValues(history, 'new_cases', view);
  return isSmoothed(view) ? values : perDayOfWeek(history, values);
}

async function showCompare() {
  say('compare-message', '');
  const names = [1, 2, 3, 4].map((i) => $(`compare-${i}`).value.trim()).filter(Boolean);
  if (names.length === 0) {
    clearChart('compare-chart');
    say('compare-message', t('pickOne'));
    return;
  }
  let histories;
  try {
    histories = await Promise.all(names.map((n) => api(weeklyPath('covid', n))));
  } catch (error) {
    clearChart('compare-chart');
    say('compare-message', problemText(error));
    return;
  }
  const daily = $('compare-mode').value === 'daily';
  const view = viewOf($('compare-view'));
  const unit = daily ? newUnit(view, false) : totalUnit(view);
  const missing = histories.filter((h) => lacksPopulation(h, view)).map((h) => h.country);
  if (missing.length > 0) say('compare-message', `${t('noPopulation')} ${missing.join(', ')}.`);
  const weeks = [...new Set(histories.flatMap((h) => h.weeks))].sort();
  const series = histories.map((h, i) => {
    const at = new Map(h.weeks.map((w, j) => [w, j]));
    const values = valuesOf(h, daily, view);
    return {
      label: h.country,
      color: COLORS[i],
      values: weeks.map((w) => (at.has(w) ? values[at.get(w)] : null)),
    };
  });
  drawChart(
    'compare-chart',
    `${t(daily ? 'newCases' : 'totalCases')} (${unit})`,
    weeks.map(toTime),
    series,
    { y: axisUnit(view, daily ? 'day' : 'total') },
  );
}

$('compare-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void showCompare();
});
fillViewSelect($('compare-view'));
