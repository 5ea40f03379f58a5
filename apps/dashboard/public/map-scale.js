// The map's colours: a sequential scale of up to seven classes (ColorBrewer's YlOrRd, light to
// dark), with breaks at the values' quantiles so that skewed figures still spread over the
// colours, rounded to two significant digits for the legend; zero and below a class of their
// own; grey for no data.
import { figure, t } from './language.js';

export const NO_DATA = '#cfd4da';
const PALETTE = ['#ffffb2', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#b10026'];

/** A value rounded to two significant digits (0 stays 0). */
function rounded(value) {
  if (value === 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 1);
  return Number((Math.round(value / step) * step).toPrecision(2));
}

/** Breaks at the `groups`-quantiles of sorted values, rounded, each above the last and the least. */
function quantileBreaks(sorted, groups) {
  const breaks = [];
  for (let k = 1; k < groups && sorted.length > 0; k++) {
    const at = rounded(sorted[Math.floor((k * sorted.length) / groups)]);
    if (at > sorted[0] && at > (breaks.length ? breaks[breaks.length - 1] : -Infinity))
      breaks.push(at);
  }
  return breaks;
}

/**
 * The scale of a set of values: `breaks` (ascending; a value v is in class i when i breaks are
 * <= v), a colour and a legend label per class, and `color(value)`. Zero and below (no new case,
 * or a correction) get a class of their own when other values are above zero: late in a series
 * many countries report nothing on most days, and quantiles over those zeros would merge
 * classes.
 */
export function colorScale(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const positive = sorted.filter((v) => v > 0);
  const zeroClass = positive.length > 0 && positive.length < sorted.length;
  const breaks = zeroClass
    ? [Number.MIN_VALUE, ...quantileBreaks(positive, PALETTE.length - 1)]
    : quantileBreaks(sorted, PALETTE.length);
  const classes = breaks.length + 1;
  const colors = Array.from(
    { length: classes },
    (_, i) => PALETTE[classes === 1 ? 3 : Math.round((i * (PALETTE.length - 1)) / (classes - 1))],
  );
  const color = (value) => {
    if (!Number.isFinite(value)) return NO_DATA;
    let i = 0;
    while (i < breaks.length && value >= breaks[i]) i++;
    return colors[i];
  };
  const shown = breaks.map((b) => (b === Number.MIN_VALUE ? 0 : b));
  const labels = colors.map((_, i) => {
    if (zeroClass && i === 0) return '≤ 0';
    if (zeroClass && i === 1) return classes === 2 ? '> 0' : `< ${figure(shown[1])}`;
    if (i === 0) return `< ${figure(shown[0])}`;
    if (i === classes - 1) return `≥ ${figure(shown[i - 1])}`;
    return `${figure(shown[i - 1])} – ${figure(shown[i])}`;
  });
  if (classes === 1 && sorted.length > 0) {
    const [min, max] = [sorted[0], sorted[sorted.length - 1]];
    labels[0] = min === max ? figure(min) : `${figure(min)} – ${figure(max)}`;
  }
  return { colors, labels, color, empty: sorted.length === 0 };
}

function swatch(color, text) {
  const item = document.createElement('li');
  const box = document.createElement('span');
  box.className = 'swatch';
  // A style property set from code, which the page's policy allows (no style attribute).
  box.style.backgroundColor = color;
  const label = document.createElement('span');
  label.textContent = text;
  item.append(box, label);
  return item;
}

/** The legend of a scale in `element`: each class's colour and range, and the no-data colour. */
export function drawLegend(element, scale, title) {
  element.textContent = '';
  const heading = document.createElement('p');
  heading.className = 'legend-title';
  heading.textContent = title;
  const list = document.createElement('ul');
  if (!scale.empty) scale.colors.forEach((color, i) => list.append(swatch(color, scale.labels[i])));
  list.append(swatch(NO_DATA, t('noData')));
  element.append(heading, list);
}
