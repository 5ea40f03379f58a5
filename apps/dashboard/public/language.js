// The page's language (French by default, English on demand) and the text, numbers and dates
// written in it.
import { TEXT } from './i18n.js';

const LANG_KEY = 'dashboard.lang';
export const DAY_MS = 86400000;

const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
/**
 * The ISO week (Monday to Sunday) that holds a date (`YYYY-MM-DD`): the API's weekly answers
 * name each week by its Sunday.
 */
export function isoWeek(date) {
  const at = Date.parse(`${date}T00:00:00Z`);
  const monday = at - ((new Date(at).getUTCDay() + 6) % 7) * DAY_MS;
  return { monday: isoDay(monday), sunday: isoDay(monday + 6 * DAY_MS) };
}

let lang =
  new URLSearchParams(location.search).get('lang') || localStorage.getItem(LANG_KEY) || 'fr';
if (!TEXT[lang]) lang = 'fr';
const locale = () => (lang === 'fr' ? 'fr-FR' : 'en-GB');
let numbers, compactFormats, fractions, tickDates;
function makeFormats() {
  numbers = new Intl.NumberFormat(locale());
  compactFormats = [0, 1, 2, 3].map(
    (digits) =>
      new Intl.NumberFormat(locale(), { notation: 'compact', maximumFractionDigits: digits }),
  );
  const date = (options) => new Intl.DateTimeFormat(locale(), { timeZone: 'UTC', ...options });
  tickDates = [
    date({ day: 'numeric', month: 'short' }),
    date({ day: 'numeric', month: 'short', year: 'numeric' }),
    date({ month: 'short', year: 'numeric' }),
    date({ year: 'numeric' }),
  ];
  fractions = [2, 1, 0].map(
    (digits) => new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }),
  );
}
makeFormats();

/** The countries' names by language, by the API's (English) name; loaded once at start. */
let countryNames = {};
export async function loadCountryNames() {
  try {
    const response = await fetch('/dashboard/assets/country-names.json');
    if (response.ok) countryNames = await response.json();
  } catch {
    // Without the list the API's names show: nothing else depends on it.
  }
}
/** A country's name in the page's language (the API's name when the list has none). */
export const countryName = (name) => countryNames[lang]?.[name] ?? name;
/** Sorts names in the page's language. */
export const byName = (a, b) => a.localeCompare(b, locale());

export const currentLanguage = () => lang;
export const t = (key) => TEXT[lang][key];
export const num = (value) =>
  Number.isFinite(value) ? numbers.format(Math.round(value)) : t('none');
/** A count or a rate: whole above 1000, with one or two decimals below (per-million figures). */
export const figure = (value) => {
  if (!Number.isFinite(value)) return t('none');
  const size = Math.abs(value);
  return fractions[size < 10 ? 0 : size < 1000 ? 1 : 2].format(value);
};
/** Labels that differ from each other's (`ticks` distinct), or blanks for those that cannot. */
function distinct(ticks, formats) {
  let labels = [];
  for (const format of formats) {
    labels = ticks.map((v) => (Number.isFinite(v) ? format(v) : ''));
    if (new Set(labels).size === labels.length) return labels;
  }
  return labels.map((label, i) => (labels.indexOf(label) === i ? label : ''));
}
/** An axis's numbers, short (`39 M`) with as many decimals as tell them apart (`39,2 M`). */
export const numberTicks = (ticks) =>
  distinct(
    ticks,
    compactFormats.map((f) => (v) => f.format(v)),
  );
/**
 * A time axis's dates (seconds) in the page's language: day and month when the ticks are days or
 * weeks apart, the month and year beyond, the year alone for years; the year added when needed.
 */
export function dateTicks(ticks, increment) {
  const days = (increment ?? 0) / 86400;
  const first = days >= 360 ? 3 : days >= 28 ? 2 : 0;
  return distinct(
    ticks,
    tickDates.slice(first).map((f) => (v) => f.format(v * 1000)),
  );
}
export const formatDate = (date) =>
  typeof date === 'string' && date
    ? new Intl.DateTimeFormat(locale(), {
        dateStyle: 'medium',
        timeZone: 'UTC',
      }).format(new Date(`${date}T00:00:00Z`))
    : t('none');
/** A date-time (ISO string) in the browser's time zone. */
export const formatTime = (iso) => (iso ? new Date(iso).toLocaleString(locale()) : t('none'));

/** The other language, remembered in localStorage and in the URL. */
export function switchLanguage() {
  lang = lang === 'fr' ? 'en' : 'fr';
  localStorage.setItem(LANG_KEY, lang);
  const url = new URL(location.href);
  url.searchParams.set('lang', lang);
  history.replaceState(null, '', url);
  makeFormats();
  applyLanguage();
}

/** The page's fixed text (`data-i18n`, `data-i18n-label`) and the language button. */
export function applyLanguage() {
  document.documentElement.lang = lang;
  document.title = t('title');
  for (const element of document.querySelectorAll('[data-i18n]'))
    element.textContent = t(element.dataset.i18n);
  for (const element of document.querySelectorAll('[data-i18n-label]'))
    element.setAttribute('aria-label', t(element.dataset.i18nLabel));
  const button = document.getElementById('lang');
  button.textContent = t('switchTo');
  button.lang = lang === 'fr' ? 'en' : 'fr';
}
