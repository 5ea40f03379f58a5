// The map's colours: a sequential scale of up to seven classes (ColorBrewer's YlOrRd, light to
// dark), with breaks at the values' quantiles so that skewed figures still spread over the
// colours, rounded to two significant digits for the legend; grey for no data.
import { figure, t } from './language.js';

export const NO_DATA = '#cfd4da';
const PALETTE = ['#ffffb2', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#b10026'];

/** A value rounded to two significant digits (0 stays 0). */
function rounded(value) {
  if (value === 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 1);
  return Number((Math.round(value / step) * step).toPrecision(2));
}

/**
 * The scale of a set of values: `breaks` (ascending; a value v is in class i when i breaks are
 * <= v), a colour per class spread over the palette, and `color(value)`.
 */
export function colorScale(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const breaks = [];
  for (let k = 1; k < PALETTE.length && sorted.length > 0; k++) {
    const at = rounded(sorted[Math.floor((k * sorted.length) / PALETTE.length)]);
    if (at > sorted[0] && at > (breaks.length ? breaks[breaks.length - 1] : -Infinity))
      breaks.push(at);
  }
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
  return { breaks, colors, color, min: sorted[0], max: sorted[sorted.length - 1] };
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
  const { breaks, colors } = scale;
  if (Number.isFinite(scale.min)) {
    if (breaks.length === 0) {
      const only =
        scale.min === scale.max ? figure(scale.min) : `${figure(scale.min)} – ${figure(scale.max)}`;
      list.append(swatch(colors[0], only));
    } else {
      list.append(swatch(colors[0], `< ${figure(breaks[0])}`));
      for (let i = 1; i < breaks.length; i++)
        list.append(swatch(colors[i], `${figure(breaks[i - 1])} – ${figure(breaks[i])}`));
      list.append(swatch(colors[breaks.length], `≥ ${figure(breaks[breaks.length - 1])}`));
    }
  }
  list.append(swatch(NO_DATA, t('noData')));
  element.append(heading, list);
}
