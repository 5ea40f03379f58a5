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
/**
 * Marks on the points of a chart's first series, each a button (reached with Tab, named by its
 * tip's text) that shows its glyphs and, on hover, focus or a tap, a tip; a legend under the
 * chart says what the glyphs mean. A mark: `{ time, kinds, key, tip: { title, lines } }`, its
 * kinds among MARK_KINDS. Answers the function that places them where the points are drawn.
 */
export function markPoints(element, chart, times, first, marks) {
  const buttons = marks.map((mark) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `mark ${mark.kinds.join(' ')}`;
    button.dataset.key = mark.key;
    button.setAttribute('aria-label', [mark.tip.title, ...mark.tip.lines].join(' ; '));
    button.append(...mark.kinds.map(glyph));
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
    item.append(glyph(kind), ` ${t(`mark_${kind}`)}`);
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

/** Hides a chart's tip (the chart is cleared). */
export function hideMarkTip(id) {
  if (chartTips.has(id)) chartTips.get(id).hidden = true;
}
