// Up to four countries on one chart: cumulative totals, or new cases per day.
import { api, problemText, weeklyPath } from './api.js';
import { COLORS, clearChart, drawChart, toTime } from './charts.js';
import { t } from './language.js';
import { $, say } from './page.js';

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
  const weeks = [...new Set(histories.flatMap((h) => h.weeks))].sort();
  const series = histories.map((h, i) => {
    const at = new Map(h.weeks.map((w, j) => [w, j]));
    return {
      label: h.country,
      color: COLORS[i],
      values: weeks.map((w) => {
        const j = at.get(w);
        if (j === undefined) return null;
        return daily ? (h.days[j] > 0 ? h.new_cases[j] / h.days[j] : null) : h.total_cases[j];
      }),
    };
  });
  drawChart('compare-chart', t(daily ? 'perDay' : 'absolute'), weeks.map(toTime), series);
}

$('compare-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void showCompare();
});
