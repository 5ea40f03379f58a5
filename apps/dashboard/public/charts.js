// The charts, drawn by uPlot (its browser build, loaded by the page before this module, defines
// the global `uPlot`).
import { dateTicks, figure, formatDate, numberTicks, t } from './language.js';
import { hideMarkTip, markPoints } from './chart-marks.js';
import { $ } from './page.js';
import {
  axisUnit,
  incompleteLastWeek,
  isSmoothed,
  newUnit,
  newValues,
  sevenDayAverage,
} from './views.js';

export const COLORS = ['#0b5cad', '#c0392b', '#2e8b57', '#8e44ad'];
export const toTime = (date) => Date.parse(`${date}T00:00:00Z`) / 1000;

const charts = new Map();
function chartWidth(element) {
  return Math.max(280, Math.min(element.parentElement.clientWidth, 1100));
}

/**
 * A chart of `series` over `times`; `units` labels the left axis (`y`) and the right one (`avg`,
 * for the series on the `avg` scale), so that the reader knows what a number counts. `marks`:
 * points to mark (chart-marks.js); `log`: the left axis on a log scale.
 */
export function drawChart(id, title, times, series, units = {}, marks = [], { log = false } = {}) {
  const element = $(id);
  if (charts.has(id)) charts.get(id).destroy();
  element.textContent = '';
  // Marks follow the points when uPlot draws again (a resize).
  let placeMarks = () => {};
  // Ticks in the page's language, each label told apart from its neighbours; the labels drawn
  // last are kept in `data-ticks` for whoever checks them (the browser tests).
  const drawn = {};
  const axes = [
    {
      // Room for a label such as "sept. 2020" between ticks: they would overlap closer.
      space: 80,
      values: (u, ticks, axis, space, increment) => (drawn.x = dateTicks(ticks, increment)),
    },
    { size: 70, label: units.y, values: (u, ticks) => (drawn.y = numberTicks(ticks)) },
  ];
  // A log scale (base 10) for the compare page, where countries differ a thousandfold.
  const scales = { x: { time: true }, ...(log ? { y: { distr: 3 } } : {}) };
  const hasRight = series.some((s) => s.scale === 'avg');
  if (hasRight) {
    axes.push({
      scale: 'avg',
      side: 1,
      size: 70,
      label: units.avg,
      grid: { show: false },
      values: (u, ticks) => (drawn.avg = numberTicks(ticks)),
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
    hooks: {
      draw: [
        () => {
          placeMarks();
          element.dataset.ticks = JSON.stringify(drawn);
        },
      ],
    },
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
        fill: s.bars ? (s.fill ?? `${s.color || COLORS[i % COLORS.length]}55`) : undefined,
        width: s.bars ? (s.dash ? 1.5 : 0) : 2,
        dash: s.dash,
        paths: s.bars ? uPlot.paths.bars({ size: [0.8, 40] }) : undefined,
        // Lines show their points where they are few (uPlot's default), so one week still shows.
        points: s.bars ? { show: false } : undefined,
        value: (u, v) => figure(v),
      })),
    ),
  };
  const chart = new uPlot(options, [times].concat(series.map((s) => s.values)), element);
  charts.set(id, chart);
  if (marks.length > 0) placeMarks = markPoints(element, chart, times, series[0], marks);
  // Each series' latest value, for whoever checks what is drawn (the browser tests).
  element.dataset.last = JSON.stringify(series.map((s) => lastValue(s.values)));
}

function lastValue(values) {
  for (let i = values.length - 1; i >= 0; i--) if (Number.isFinite(values[i])) return values[i];
  return null;
}

export function clearChart(id) {
  if (charts.has(id)) charts.get(id).destroy();
  hideMarkTip(id);
  charts.delete(id);
  $(id).textContent = '';
  delete $(id).dataset.last;
}

window.addEventListener('resize', () => {
  for (const [id, chart] of charts)
    chart.setSize({ width: chartWidth($(id)), height: chart.height });
});

/**
 * New cases or deaths (`key`) of a weekly answer in a view (views.js), from the week `from` on:
 * weekly sums as bars with their average per day as a line (raw, per million), or the 7-day
 * average alone (smoothed views). Titled and labelled with the view's unit.
 */
export function weeklyWithAverage(answer, key, color, from, view = 'raw') {
  const keep = answer.weeks.map((w) => !from || w >= from);
  const pick = (values) => values.filter((_, i) => keep[i]);
  const times = pick(answer.weeks).map(toTime);
  const values = newValues(answer, key, view);
  const name = t(key === 'new_cases' ? 'newCases' : 'newDeaths');
  const perDayUnit = newUnit(view, false);
  if (isSmoothed(view)) {
    return {
      times,
      label: `${name} (${perDayUnit})`,
      units: { y: axisUnit(view, 'day') },
      series: [{ label: name, values: pick(values), color }],
    };
  }
  // As published, the labels the overview has always had; per million, the unit said.
  const raw = view === 'raw';
  const label = raw
    ? t(key === 'new_cases' ? 'weeklyCases' : 'weeklyDeaths')
    : `${name} (${newUnit(view, true)})`;
  const series = [
    { label, values: pick(values), bars: true, color },
    {
      label: raw ? t('avg7') : `${t('avg7')} (${perDayUnit})`,
      values: pick(sevenDayAverage(answer, key, view, values)),
      scale: 'avg',
      color: '#222',
    },
  ];
  // The last week, still incomplete, drawn over its bar pale and dashed, and named in the legend.
  const days = incompleteLastWeek(answer);
  if (days > 0 && times.length > 0) {
    const last = series[0].values.length - 1;
    series.push({
      label: t('incompleteWeek')(days),
      values: series[0].values.map((v, i) => (i === last ? v : null)),
      bars: true,
      color,
      fill: '#ffffffb0',
      dash: [4, 3],
    });
  }
  return { times, label, units: { y: axisUnit(view, 'week'), avg: axisUnit(view, 'day') }, series };
}
