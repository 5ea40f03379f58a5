// The world map: countries coloured by a chosen metric at a chosen date or week
// (`GET /api/{disease}/public/map`), drawn from Natural Earth's outlines (`world-shapes.json`,
// from the world-atlas package) projected by d3-geo. Each country with an answer is a link to its
// page: focusable, and it tells its value on hover and on focus; a table lists every value.
import { ApiProblem, api, problemText } from './api.js';
import { DAY_MS, countryName, figure, formatDate, isoWeek, t } from './language.js';
import { colorScale, drawLegend } from './map-scale.js';
import { $, say } from './page.js';
import { wireTips } from './tip.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 960;
const ASSETS = '/dashboard/assets';

/** A browser build (it defines a global), added to the page once the map needs it. */
function loadScript(file) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${ASSETS}/${file}`;
    script.addEventListener('load', resolve);
    script.addEventListener('error', () => reject(new Error(file)));
    document.head.append(script);
  });
}

/**
 * The outlines projected once (Natural Earth projection, Antarctica left out: no figures, and
 * it would take a fifth of the map). d3-array, d3-geo and topojson-client are loaded on the
 * map's first showing only (in that order: d3-geo needs d3-array): the other views do without.
 */
async function projectShapes() {
  await loadScript('d3-array.min.js');
  await loadScript('d3-geo.min.js');
  await loadScript('topojson-client.min.js');
  const topology = await api(`${ASSETS}/world-shapes.json`);
  const features = topojson
    .feature(topology, topology.objects.countries)
    .features.filter((f) => f.properties.iso3 !== 'ATA');
  const all = { type: 'FeatureCollection', features };
  const path = d3.geoPath(d3.geoNaturalEarth1().fitWidth(WIDTH, all));
  return {
    height: Math.ceil(path.bounds(all)[1][1]),
    countries: features.map((f) => ({
      iso3: f.properties.iso3,
      name: f.properties.name,
      d: path(f),
    })),
  };
}

let shapesLoading;
function loadShapes() {
  if (!shapesLoading) {
    shapesLoading = projectShapes().catch((error) => {
      shapesLoading = undefined;
      throw error;
    });
  }
  return shapesLoading;
}

const mapPath = (disease, query) =>
  `/api/${disease}/public/map?${new URLSearchParams(query).toString()}`;

/** The answer asked for: a day (the latest without a date), or the ISO week of a date. */
async function loadAnswer(disease, metric, period, date) {
  if (period === 'day') return api(mapPath(disease, date ? { metric, date } : { metric }));
  // A week without a date: the week of the latest date.
  const day = date || (await api(mapPath(disease, { metric }))).date;
  return api(mapPath(disease, { metric, week: day }));
}

/** What the answer covers: its day, or the Monday to Sunday of its week. */
function periodText(answer) {
  if (answer.period !== 'week') return t('dayOf')(formatDate(answer.date));
  const { monday, sunday } = isoWeek(answer.date);
  return t('weekOf')(formatDate(monday), formatDate(sunday));
}

/** When a country's own value is from: its day, or its week (each its latest by the map's date). */
function valueDateText(period, date) {
  if (period !== 'week') return t('valueOn')(formatDate(date));
  const { monday, sunday } = isoWeek(date);
  return t('weekOf')(formatDate(monday), formatDate(sunday));
}

const countryHref = (country) => `#country/${encodeURIComponent(country)}`;
const svgElement = (name, attributes) => {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
};

/** What the tip says of each shape: its name, value, unit and date, and its page. */
const tips = new WeakMap();

function drawShapes(shapes, answer, scale) {
  const svg = $('map-svg');
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${shapes.height}`);
  svg.textContent = '';
  const unit = t(`metric_${answer.metric}`);
  const byIso = new Map(answer.countries.filter((c) => c.iso3).map((c) => [c.iso3, c]));
  for (const shape of shapes.countries) {
    const row = shape.iso3 ? byIso.get(shape.iso3) : undefined;
    const value = row ? row.value : null;
    const path = svgElement('path', {
      d: shape.d,
      fill: scale.color(value),
      class: value == null ? 'country no-data' : 'country',
    });
    if (shape.iso3) path.dataset.iso3 = shape.iso3;
    const name = row ? countryName(row.country) : countryName(shape.name);
    const tip =
      value == null
        ? { title: name, lines: [t('noData')] }
        : {
            title: name,
            lines: [`${figure(value)} ${unit}`, valueDateText(answer.period, row.date)],
          };
    const label = `${t('named')(tip.title, tip.lines[0])}${tip.lines[1] ? `, ${tip.lines[1]}` : ''}`;
    if (row) {
      // A link: focusable with Tab, opened with Enter, named with its value for screen readers.
      const link = svgElement('a', { href: countryHref(row.country), 'aria-label': label });
      link.append(path);
      tips.set(link, { ...tip, link: { href: countryHref(row.country), text: t('openCountry') } });
      svg.append(link);
    } else {
      const title = svgElement('title', {});
      title.textContent = label;
      path.append(title);
      tips.set(path, tip);
      svg.append(path);
    }
  }
}

function drawTable(answer) {
  const body = $('map-table').tBodies[0];
  body.textContent = '';
  const rows = [...answer.countries].sort(
    (a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity) || a.country.localeCompare(b.country),
  );
  for (const row of rows) {
    const tr = document.createElement('tr');
    const name = document.createElement('td');
    const link = document.createElement('a');
    link.href = countryHref(row.country);
    link.textContent = countryName(row.country);
    name.append(link);
    const value = document.createElement('td');
    value.className = 'num';
    value.textContent = figure(row.value);
    const date = document.createElement('td');
    date.textContent = formatDate(row.date);
    tr.append(name, value, date);
    body.append(tr);
  }
}

/** The shape's link (around the path) when it has one, else the path itself. */
const shapeOf = (node) =>
  node instanceof Element ? (node.closest('#map-svg a') ?? node.closest('#map-svg path')) : null;
const svg = $('map-svg');
// The tip beside a shape: at the pointer, or under the focused shape; a tap shows it with a link
// to the country's page, since a touch screen has no hover.
wireTips(svg, $('map-tip'), shapeOf, (shape, how) => {
  const found = tips.get(shape);
  if (!found) return undefined;
  return how === 'tap' ? found : { title: found.title, lines: found.lines };
});

/** The map route's 404 is a date without data, not an unknown country; a 400, a bad date. */
function mapProblem(error) {
  if (!(error instanceof ApiProblem)) return problemText(error);
  if (error.status === 404) return t('mapNothing');
  if (error.status === 400) return t('mapRefused')(error.status);
  return problemText(error);
}

function clearMap() {
  for (const id of ['map-svg', 'map-legend', 'map-heading', 'map-count']) $(id).textContent = '';
  $('map-table').tBodies[0].textContent = '';
  delete $('map-svg').dataset.drawn;
}

const CHOICES = ['map-disease', 'map-metric', 'map-period'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The choices a link names (`#map/covid/new_cases_per_million/week/2023-03-08`), set on the
 * controls; a part that is not one of a control's options is left as the control has it.
 */
function applyLink(parts) {
  for (const [i, id] of CHOICES.entries()) {
    const select = $(id);
    if ([...select.options].some((o) => o.value === parts[i])) select.value = parts[i];
  }
  if (parts.length > 0) $('map-date').value = DATE.test(parts[3] ?? '') ? parts[3] : '';
}

/** The link of the controls' choices (the date left out when empty: the latest). */
function linkOfChoices() {
  const date = $('map-date').value;
  return ['map', ...CHOICES.map((id) => $(id).value), ...(date ? [date] : [])].join('/');
}

/** The map of the choices a link names (none: those of the controls). */
export async function showMap(parts = []) {
  applyLink(parts);
  say('map-message', '');
  $('map-tip').hidden = true;
  const metric = $('map-metric').value;
  const disease = $('map-disease').value;
  let shapes, answer;
  try {
    [shapes, answer] = await Promise.all([
      loadShapes(),
      loadAnswer(disease, metric, $('map-period').value, $('map-date').value),
    ]);
  } catch (error) {
    clearMap();
    say('map-message', mapProblem(error));
    return;
  }
  const label = t(`metric_${metric}`);
  const scale = colorScale(answer.countries.map((c) => c.value));
  say(
    'map-heading',
    `${disease === 'covid' ? 'COVID-19' : 'MPOX'} — ${label} — ${periodText(answer)}`,
  );
  drawShapes(shapes, answer, scale);
  drawLegend($('map-legend'), scale, label);
  drawTable(answer);
  const withData = answer.countries.filter((c) => c.value != null).length;
  say('map-count', t('countriesWithData')(withData, answer.countries.length));
  await placeSlider(disease, answer);
  // Labelled here, not by applyLanguage: a language switch while playing keeps *Pause*.
  $('map-play').textContent = t(playing ? 'pause' : 'play');
  svg.dataset.drawn = `${disease}:${metric}:${answer.period}:${answer.date}`;
}

/*
 * The time slider: every day (or ISO week, by its Sunday) from the disease's first week to its
 * latest date; moving it draws that date's map, *Lecture* steps through them one by one.
 */
const slider = $('map-slider');
const iso = (ms) => new Date(ms).toISOString().slice(0, 10);
let timeline = { key: '', dates: [] };

/** The dates the slider steps through, from the world's weekly answer (one request per disease). */
async function datesOf(disease, period) {
  const key = `${disease}:${period}`;
  if (timeline.key !== key) {
    const { weeks, days } = await api(`/api/${disease}/public/weekly`);
    const dates = [...weeks];
    if (period === 'day' && weeks.length > 0) {
      dates.length = 0;
      // The last week's days with a record, counted from its Monday: up to the latest date.
      const monday = Date.parse(`${weeks[weeks.length - 1]}T00:00:00Z`) - 6 * DAY_MS;
      const last = monday + (Math.min(7, days[days.length - 1]) - 1) * DAY_MS;
      for (let at = Date.parse(`${weeks[0]}T00:00:00Z`) - 6 * DAY_MS; at <= last; at += DAY_MS)
        dates.push(iso(at));
    }
    timeline = { key, dates };
  }
  return timeline.dates;
}

/** The slider at the answer's date (the last of the days with data when later ones are empty). */
async function placeSlider(disease, answer) {
  let dates;
  try {
    dates = await datesOf(disease, answer.period);
  } catch {
    dates = [];
  }
  const at = dates.indexOf(answer.date);
  slider.disabled = at < 0;
  $('map-play').disabled = at < 0;
  if (at < 0) {
    $('map-slider-date').textContent = '';
    return;
  }
  slider.max = String(dates.length - 1);
  slider.value = String(at);
  showSliderDate();
}

function showSliderDate() {
  const date = timeline.dates[Number(slider.value)];
  $('map-slider-date').textContent = date ? formatDate(date) : '';
  slider.setAttribute('aria-valuetext', $('map-slider-date').textContent);
}

/** Draws the map of the slider's date, the URL following it (replaced, not one entry a step). */
function drawSliderDate() {
  const date = timeline.dates[Number(slider.value)];
  if (!date) return Promise.resolve();
  $('map-date').value = date;
  history.replaceState(null, '', `#${linkOfChoices()}`);
  return showMap();
}

slider.addEventListener('input', showSliderDate);
slider.addEventListener('change', () => {
  stopPlaying();
  void drawSliderDate();
});

let playing = false;
const STEP_MS = 700;
function stopPlaying() {
  playing = false;
  $('map-play').textContent = t('play');
  $('map-play').setAttribute('aria-pressed', 'false');
}
/** One step after another, each drawn before the next is asked for; from the start at the end. */
async function play() {
  playing = true;
  $('map-play').textContent = t('pause');
  $('map-play').setAttribute('aria-pressed', 'true');
  if (Number(slider.value) >= Number(slider.max)) slider.value = '0';
  else slider.value = String(Number(slider.value) + 1);
  while (playing) {
    await drawSliderDate();
    await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    const done = Number(slider.value) >= Number(slider.max) || slider.disabled;
    // Another view shown: the URL is no longer the map's to replace.
    if (!playing || done || $('map').hidden) break;
    slider.value = String(Number(slider.value) + 1);
  }
  stopPlaying();
}
$('map-play').addEventListener('click', () => {
  if (playing) stopPlaying();
  else void play();
});

// The choices go into the URL, so that a map can be shared; the same URL again is drawn again.
$('map-form').addEventListener('submit', (event) => {
  event.preventDefault();
  stopPlaying();
  const link = linkOfChoices();
  if (location.hash === `#${link}`) void showMap();
  else location.hash = link;
});
