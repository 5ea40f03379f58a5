// Marks on a chart's points (the weeks a country page flags): focusable buttons placed over
// uPlot's plot, a legend of their glyphs, and the tip they show on hover and on focus.
import { t } from './language.js';
import { wireTips } from './tip.js';

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

/** A kind's glyph, hidden from screen readers (the mark's label says it in words). */
function glyph(kind) {
  const span = document.createElement('span');
  span.className = `glyph ${kind}`;
  span.setAttribute('aria-hidden', 'true');
  span.textContent = t(`mark_${kind}_glyph`);
  return span;
}

/** The kinds of marks, in the order a mark shows their glyphs and the legend lists them. */
export const MARK_KINDS = ['negative', 'corrected'];
/** Space kept between two marks side by side (a group's second card included), in CSS pixels. */
const MARK_GAP = 4;
/** The most lines a group's tip has, the last saying how many weeks more it holds. */
const GROUP_LINES = 8;
/** A one-glyph mark's width, until the chart's marks can be measured (laid out). */
const MARK_WIDTH = 18;

/** A mark's button: its glyphs, its tip, and a label that says the tip's text. */
function markButton(chart, { key, kinds, tip }) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `mark ${kinds.join(' ')}`;
  button.dataset.key = key;
  button.setAttribute('aria-label', [tip.title, ...tip.lines].join(' ; '));
  button.append(...kinds.map(glyph));
  tipOf.set(button, tip);
  // A tap (no hover on touch screens) shows the tip as focus does.
  button.addEventListener('click', () => button.focus());
  chart.over.append(button);
  return button;
}

/**
 * Marks too close to be told apart, as one mark: their kinds together, a tip that gives their
 * span and one line per member (at most GROUP_LINES lines), placed on the first one.
 */
function groupOf(members) {
  if (members.length === 1) return members[0];
  const first = members[0];
  const last = members[members.length - 1];
  const lines = members.map((m) => t('named')(m.tip.title, m.tip.lines.join(' ; ')));
  const shown = lines.length > GROUP_LINES ? lines.slice(0, GROUP_LINES - 1) : lines;
  if (shown.length < lines.length) shown.push(t('andMore')(lines.length - shown.length));
  return {
    time: first.time,
    key: first.key,
    kinds: MARK_KINDS.filter((k) => members.some((m) => m.kinds.includes(k))),
    group: true,
    tip: { title: t('weeksFrom')(members.length, first.span.from, last.span.to), lines: shown },
  };
}

/**
 * The marks in groups (indexes in `marks`, left to right) that keep them apart at the chart's
 * current x positions: a group starts at the first mark at least a mark's `width` (the widest a
 * group could be) after the previous group's start, so no two buttons can overlap.
 */
function groupByPosition(chart, marks, width) {
  const groups = [];
  let start = -Infinity;
  for (const i of marks.keys()) {
    const x = chart.valToPos(marks[i].time, 'x');
    if (x - start >= width + MARK_GAP) {
      groups.push([i]);
      start = x;
    } else groups[groups.length - 1].push(i);
  }
  return groups;
}

/**
 * Marks on the points of a chart's first series, each a button (reached with Tab, named by its
 * tip's text) that shows its glyphs and, on hover, focus or a tap, a tip; a legend under the
 * chart says what the glyphs mean. A mark: `{ time, kinds, key, span: { from, to }, tip: {
 * title, lines } }`, its kinds among MARK_KINDS, in time order. Marks that would overlap are
 * shown as one (`.mark.cluster`), grouped again at each placing. Answers the function that places
 * them where the points are drawn.
 */
export function markPoints(element, chart, times, first, marks) {
  const legend = document.createElement('p');
  legend.className = 'mark-legend';
  const kinds = MARK_KINDS.filter((k) => marks.some((m) => m.kinds.includes(k)));
  for (const kind of kinds) {
    const item = document.createElement('span');
    item.append(glyph(kind), ` ${t(`mark_${kind}`)}`);
    legend.append(item);
  }
  element.append(legend, chartTip(element));
  // The widest a mark can be here (all the chart's kinds), measured once laid out.
  let width = 0;
  let grouping = '';
  let shown = [];
  const regroup = (groups) => {
    const focused = shown.findIndex((s) => s.button === document.activeElement);
    const wanted = focused < 0 ? -1 : shown[focused].members[0];
    for (const s of shown) s.button.remove();
    shown = groups.map((members) => {
      const mark = groupOf(members.map((i) => marks[i]));
      const button = markButton(chart, mark);
      if (mark.group) button.classList.add('cluster');
      return { members, button };
    });
    // Keyboard focus stays on the mark of the week it was on.
    if (wanted >= 0) shown.find((s) => s.members.includes(wanted))?.button.focus();
  };
  const place = () => {
    if (!width) {
      const probe = markButton(chart, { key: '', kinds, tip: { title: '', lines: [] } });
      width = probe.offsetWidth;
      probe.remove();
    }
    const groups = groupByPosition(chart, marks, width || MARK_WIDTH);
    const key = groups.map((g) => g.join(',')).join(' ');
    if (key !== grouping) regroup(groups);
    grouping = key;
    const height = chart.over.clientHeight;
    for (const { members, button } of shown) {
      const mark = marks[members[0]];
      const at = times.indexOf(mark.time);
      const value = at < 0 ? null : first.values[at];
      const top = Number.isFinite(value) ? chart.valToPos(value, first.scale || 'y') : height;
      button.style.left = `${chart.valToPos(mark.time, 'x')}px`;
      button.style.top = `${Math.min(Math.max(0, top), height)}px`;
    }
  };
  place();
  return place;
}

/** Hides a chart's tip (the chart is cleared). */
export function hideMarkTip(id) {
  if (chartTips.has(id)) chartTips.get(id).hidden = true;
}
