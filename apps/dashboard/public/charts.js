// The charts, drawn by uPlot (its browser build, loaded by the page before this module, defines
// the global `uPlot`).
import { compact, formatDate, monthsAndDays, num, t } from './language.js';
import { $ } from './page.js';

export const COLORS = ['#0b5cad', '#c0392b', '#2e8b57', '#8e44ad'];
export const toTime = (date) => Date.parse(`${date}T00:00:00Z`) / 1000;

const charts = new Map();
function chartWidth(element) {
  return Math.max(280, Math.min(element.parentElement.clientWidth, 1100));
}

export function drawChart(id, title, times, series) {
  const element = $(id);
  if (charts.has(id)) charts.get(id).destroy();
  element.textContent = '';
  const axes = [{}, { size: 70, values: (u, ticks) => ticks.map((v) => compact(v)) }];
  const scales = { x: { time: true } };
  const hasRight = series.some((s) => s.scale === 'avg');
  if (hasRight) {
    axes.push({
      scale: 'avg',
      side: 1,
      size: 70,
      grid: { show: false },
      values: (u, ticks) => ticks.map((v) => compact(v)),
    });
    scales.avg = {};
  }
  const options = {
    title,
    width: chartWidth(element),
    height: window.innerWidth < 480 ? 220 : 280,
    scales,
    axes,
    legend: { live: false },
    fmtDate: (template) => uPlot.fmtDate(template, monthsAndDays()),
    series: [
      {
        value: (u, v) =>
          v == null ? t('none') : formatDate(new Date(v * 1000).toISOString().slice(0, 10)),
      },
    ].concat(
      series.map((s, i) => ({
        label: s.label,
        scale: s.scale || 'y',
        stroke: s.color || COLORS[i % COLORS.length],
        fill: s.bars ? `${s.color || COLORS[i % COLORS.length]}55` : undefined,
        width: s.bars ? 0 : 2,
        paths: s.bars ? uPlot.paths.bars({ size: [0.8, 40] }) : undefined,
        points: { show: false },
        value: (u, v) => num(v),
      })),
    ),
  };
  const chart = new uPlot(options, [times].concat(series.map((s) => s.values)), element);
  charts.set(id, chart);
}

export function clearChart(id) {
  if (charts.has(id)) charts.get(id).destroy();
  charts.delete(id);
  $(id).textContent = '';
}

window.addEventListener('resize', () => {
  for (const [id, chart] of charts)
    chart.setSize({ width: chartWidth($(id)), height: chart.height });
});

/** Weekly sums as bars, and the 7-day average (sum / days with records) as a line. */
export function weeklyWithAverage(history, key, color, from) {
  const keep = history.weeks.map((w) => !from || w >= from);
  const pick = (values) => values.filter((_, i) => keep[i]);
  const times = pick(history.weeks).map(toTime);
  const sums = pick(history[key]);
  const days = pick(history.days);
  return {
    times,
    series: [
      {
        label: t(key === 'new_cases' ? 'weeklyCases' : 'weeklyDeaths'),
        values: sums,
        bars: true,
        color,
      },
      {
        label: t('avg7'),
        values: sums.map((s, i) => (days[i] > 0 ? s / days[i] : null)),
        scale: 'avg',
        color: '#222',
      },
    ],
  };
}
