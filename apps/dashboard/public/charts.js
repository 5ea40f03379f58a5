// The charts, drawn by uPlot (its browser build, loaded by the page before this module, defines
// the global `uPlot`).
import { compact, figure, formatDate, monthsAndDays, t } from './language.js';
import { $ } from './page.js';
import { wireTips } from './tip.js';
import { axisUnit, isSmoothed, newUnit, newValues, perDayOfWeek } from './views.js';

export const COLORS = ['#0b5cad', '#c0392b', '#2e8b57', '#8e44ad'];
export const toTime = (date) => Date.parse(`${date}T00:00:00Z`) / 1000;

const charts = new Map();
function chartWidth(element) {
  return Math.max(280, Math.min(element.parentElement.clientWidth, 1100));
}

/**
 * A chart of `series` over `times`; `units` labels the left axis (`y`) and the right one (`avg`,
 * for the series on the `avg` scale), so that the reader knows what a number counts. `marks`:
 * points to mark (markPoints below).
 */
export function drawChart(id, title, times, series, units = {}, marks = []) {
  const element = $(id);
  if (charts.has(id)) charts.get(id).destroy();
  element.textContent = '';
  // Marks follow the points when uPlot draws again (a resize).
  let placeMarks = () => {};
  const axes = [
    {},
    { size: 70, label: units.y, values: (u, ticks) => ticks.map((v) => compact(v)) },
  ];
  const scales = { x: { time: true } };
  const hasRight = series.some((s) => s.scale === 'avg');
  if (hasRight) {
    axes.push({
      scale: 'avg',
      side: 1,
      size: 70,
      label: units.avg,
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
    hooks: { draw: [() => placeMarks()] },
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

/** What each mark's tip says ({ title, lines }). */
const tipOf = new WeakMap();
const markOf = (node) => (node instanceof Element ? node.closest('.mark') : null);
/** One tip per chart element, wired once: the same on hover and on keyboard focus. */
const chartTips = new Map();
function chartTip(element) {
  if (!chartTips.has(element.id)) {
    const tip = document.createElement('div');
    tip.className = 'tip';
    tip.setAttribute('role', 'status');
    tip.hidden = true;
    chartTips.set(element.id, tip);
    wireTips(element, tip, markOf, (mark) => tipOf.get(mark));
  }
  return chartTips.get(element.id);
}

/** The kinds of marks, in the order a mark shows their glyphs and the legend lists them. */
export const MARK_KINDS = ['negative', 'corrected'];
/**
 * Marks on the points of a chart's first series, each a button (reached with Tab, named by its
 * tip's text) that shows its glyphs and, on hover, focus or a tap, a tip; a legend under the
 * chart says what the glyphs mean. A mark: `{ time, kinds, key, tip: { title, lines } }`, its
 * kinds among MARK_KINDS. Answers the function that places them where the points are drawn.
 */
function markPoints(element, chart, times, first, marks) {
  const buttons = marks.map((mark) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `mark ${mark.kinds.join(' ')}`;
    button.dataset.key = mark.key;
    button.setAttribute('aria-label', [mark.tip.title, ...mark.tip.lines].join(' ; '));
    for (const kind of mark.kinds) {
      const glyph = document.createElement('span');
      glyph.className = `glyph ${kind}`;
      glyph.setAttribute('aria-hidden', 'true');
      glyph.textContent = t(`mark_${kind}_glyph`);
      button.append(glyph);
    }
    tipOf.set(button, mark.tip);
    // A tap (no hover on touch screens) shows the tip as focus does.
    button.addEventListener('click', () => button.focus());
    chart.over.append(button);
    return button;
  });
  const legend = document.createElement('p');
  legend.className = 'mark-legend';
  for (const kind of MARK_KINDS.filter((k) => marks.some((m) => m.kinds.includes(k)))) {
    const item = document.createElement('span');
    const glyph = document.createElement('span');
    glyph.className = `glyph ${kind}`;
    glyph.setAttribute('aria-hidden', 'true');
    glyph.textContent = t(`mark_${kind}_glyph`);
    item.append(glyph, ` ${t(`mark_${kind}`)}`);
    legend.append(item);
  }
  element.append(legend, chartTip(element));
  const place = () => {
    const height = chart.over.clientHeight;
    for (const [i, mark] of marks.entries()) {
      const at = times.indexOf(mark.time);
      const value = at < 0 ? null : first.values[at];
      const top = Number.isFinite(value) ? chart.valToPos(value, first.scale || 'y') : height;
      buttons[i].style.left = `${chart.valToPos(mark.time, 'x')}px`;
      buttons[i].style.top = `${Math.min(Math.max(0, top), height)}px`;
    }
  };
  place();
  return place;
}

function lastValue(values) {
  for (let i = values.length - 1; i >= 0; i--) if (Number.isFinite(values[i])) return values[i];
  return null;
}

export function clearChart(id) {
  if (charts.has(id)) charts.get(id).destroy();
  if (chartTips.has(id)) chartTips.get(id).hidden = true;
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
export function weeklyWithAverage(history, key, color, from, view = 'raw') {
  const keep = history.weeks.map((w) => !from || w >= from);
  const pick = (values) => values.filter((_, i) => keep[i]);
  const times = pick(history.weeks).map(toTime);
  const values = newValues(history, key, view);
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
  return {
    times,
    label,
    units: { y: axisUnit(view, 'week'), avg: axisUnit(view, 'day') },
    series: [
      { label, values: pick(values), bars: true, color },
      {
        label: raw ? t('avg7') : `${t('avg7')} (${perDayUnit})`,
        values: pick(perDayOfWeek(history, values)),
        scale: 'avg',
        color: '#222',
      },
    ],
  };
}
