// A country's corrections (figures changed after they were first published, from
// `/public/country/:country/corrections`) and the weeks its weekly answer flags (`flags`): the
// marks of the country's charts, with each week's old and new values, and the table of the
// latest corrections.
import { api, problemText } from './api.js';
import { MARK_KINDS } from './chart-marks.js';
import { toTime } from './charts.js';
import { figure, formatDate, formatTime, isoWeek, t } from './language.js';
import { $, say } from './page.js';

/** Corrections loaded per disease (the route's maximum): the table shows the first TABLE_ROWS. */
const LOADED = 100;
const TABLE_ROWS = 20;

const correctionsPath = (disease, country) =>
  `/api/${disease}/public/country/${encodeURIComponent(country)}/corrections?limit=${LOADED}`;

/**
 * A country's latest corrections, latest first; a failure is kept (`problem`) rather than thrown,
 * so that the charts are drawn all the same.
 */
export async function loadCorrections(disease, country) {
  try {
    const answer = await api(correctionsPath(disease, country));
    return { corrections: Array.isArray(answer.corrections) ? answer.corrections : [] };
  } catch (error) {
    return { corrections: [], problem: error };
  }
}

/** The flags in the order the tips list them. */
const FLAGS = ['negative_new_cases', 'negative_new_deaths', 'corrected'];
/** The flags that mark a chart of new cases or of new deaths (`key`), and the mark they make. */
const MARKING = {
  new_cases: { negative_new_cases: 'negative', corrected: 'corrected' },
  new_deaths: { negative_new_deaths: 'negative', corrected: 'corrected' },
};

const fieldName = (field) => t(`metric_${field}`) ?? field;
const value = (v) => (v == null ? t('none') : figure(v));
const correctionLine = (c) =>
  t('correctionLine')(formatDate(c.date), fieldName(c.field), value(c.old), value(c.new));

/**
 * The marks of a chart of `key` (`new_cases`, `new_deaths`) from the week `from` on: one per
 * week whose flags concern it, its tip the week, all its flags and the old and new values of
 * the week's corrections among those loaded (matched by the ISO week of their date, the week
 * the answer names by its Sunday).
 */
export function weekMarks(answer, key, corrections, from) {
  const byWeek = new Map();
  for (const correction of corrections) {
    const week = isoWeek(correction.date).sunday;
    if (!byWeek.has(week)) byWeek.set(week, []);
    byWeek.get(week).push(correction);
  }
  const marks = [];
  for (const [i, week] of answer.weeks.entries()) {
    const given = (answer.flags && answer.flags[i]) || [];
    const flags = FLAGS.filter((f) => given.includes(f));
    const kinds = MARK_KINDS.filter((k) => flags.some((f) => MARKING[key][f] === k));
    if ((from && week < from) || kinds.length === 0) continue;
    const found = byWeek.get(week) || [];
    const lines = flags.map((f) => t(`flag_${f}`) ?? f);
    // Oldest change first, as they happened.
    lines.push(...[...found].reverse().map(correctionLine));
    if (flags.includes('corrected') && found.length === 0) lines.push(t('correctionsOlder'));
    const { monday, sunday } = isoWeek(week);
    const span = { from: formatDate(monday), to: formatDate(sunday) };
    marks.push({
      time: toTime(week),
      key: week,
      kinds,
      span,
      tip: { title: t('weekOf')(span.from, span.to), lines },
    });
  }
  return marks;
}

/** The line above the table: none (nothing asked, or rows), none to list, or a failure. */
function noteOf(loaded, rows) {
  if (!loaded || rows.length > 0) return '';
  return loaded.problem ? problemText(loaded.problem) : t('noCorrections');
}

/** The table's columns holding numbers (aligned right). */
const NUMERIC_COLUMNS = [false, false, true, true, false, false];
/**
 * The table of a country's latest corrections (date, figure, old, new, change, when), or the
 * note that there is none, or why they could not be loaded.
 */
export function fillCorrections(tableId, noteId, loaded) {
  const table = $(tableId);
  const body = table.tBodies[0];
  body.textContent = '';
  table.tHead.textContent = '';
  const head = table.tHead.insertRow();
  for (const [i, label] of t('correctionColumns').entries()) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = label;
    if (NUMERIC_COLUMNS[i]) th.className = 'num';
    head.append(th);
  }
  const rows = loaded ? loaded.corrections.slice(0, TABLE_ROWS) : [];
  table.hidden = rows.length === 0;
  say(noteId, noteOf(loaded, rows));
  for (const c of rows) {
    const tr = body.insertRow();
    const cells = [
      formatDate(c.date),
      fieldName(c.field),
      value(c.old),
      value(c.new),
      t('changes')[c.change] ?? c.change,
      formatTime(c.at),
    ];
    for (const [i, text] of cells.entries()) {
      const cell = tr.insertCell();
      cell.textContent = text;
      if (NUMERIC_COLUMNS[i]) cell.className = 'num';
    }
  }
}
