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

const monthNames = (locale, style) =>
  Array.from({ length: 12 }, (_, m) =>
    new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' }).format(Date.UTC(2021, m, 1)),
  );
const dayNames = (locale, style) =>
  Array.from({ length: 7 }, (_, d) =>
    new Intl.DateTimeFormat(locale, { weekday: style, timeZone: 'UTC' }).format(
      Date.UTC(2021, 0, 3 + d),
    ),
  );
// uPlot's axis labels in the page's language.
const MONTHS = {};
for (const [key, locale] of [
  ['fr', 'fr-FR'],
  ['en', 'en-GB'],
]) {
  MONTHS[key] = {
    MMMM: monthNames(locale, 'long'),
    MMM: monthNames(locale, 'short'),
    WWWW: dayNames(locale, 'long'),
    WWW: dayNames(locale, 'short'),
  };
}

let lang =
  new URLSearchParams(location.search).get('lang') || localStorage.getItem(LANG_KEY) || 'fr';
if (!TEXT[lang]) lang = 'fr';
const locale = () => (lang === 'fr' ? 'fr-FR' : 'en-GB');
let numbers, compactFormat, fractions;
function makeFormats() {
  numbers = new Intl.NumberFormat(locale());
  compactFormat = new Intl.NumberFormat(locale(), { notation: 'compact' });
  fractions = [2, 1, 0].map(
    (digits) => new Intl.NumberFormat(locale(), { maximumFractionDigits: digits }),
  );
}
makeFormats();

export const currentLanguage = () => lang;
export const t = (key) => TEXT[lang][key];
export const monthsAndDays = () => MONTHS[lang];
export const num = (value) =>
  Number.isFinite(value) ? numbers.format(Math.round(value)) : t('none');
/** A count or a rate: whole above 1000, with one or two decimals below (per-million figures). */
export const figure = (value) => {
  if (!Number.isFinite(value)) return t('none');
  const size = Math.abs(value);
  return fractions[size < 10 ? 0 : size < 1000 ? 1 : 2].format(value);
};
export const compact = (v) => (Number.isFinite(v) ? compactFormat.format(v) : '');
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
