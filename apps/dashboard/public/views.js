// The ways a country's figures can be shown, so that countries of different sizes compare on one
// chart: as published, per million people, as the 7-day average, or both. Each view picks the
// weekly answer's arrays and says its unit.
import { t } from './language.js';

export const VIEWS = ['raw', 'per_million', 'smoothed', 'smoothed_per_million'];

const perMillion = (view) => view === 'per_million' || view === 'smoothed_per_million';
export const isSmoothed = (view) => view === 'smoothed' || view === 'smoothed_per_million';

const LABELS = {
  raw: 'viewRaw',
  per_million: 'viewPerMillion',
  smoothed: 'viewSmoothed',
  smoothed_per_million: 'viewSmoothedPerMillion',
};
/** A select's options, one per view, labelled in the page's language by applyLanguage. */
export function fillViewSelect(select) {
  for (const view of VIEWS) {
    const option = document.createElement('option');
    option.value = view;
    option.dataset.i18n = LABELS[view];
    option.textContent = t(LABELS[view]);
    select.append(option);
  }
}

/** The view a select holds (the first one when it holds something else). */
export const viewOf = (select) => (VIEWS.includes(select.value) ? select.value : VIEWS[0]);

/**
 * New cases or deaths (`key`: `new_cases`, `new_deaths`) in a view, one value per week:
 * the week's sum (raw, per million) or the 7-day average at the week's last record (smoothed;
 * per million over the answer's `population`). Null where the answer has none.
 */
export function newValues(answer, key, view) {
  const at = (name) => answer[name] ?? answer.weeks.map(() => null);
  if (view === 'raw') return answer[key];
  if (view === 'per_million') return at(`${key}_per_million`);
  const smoothed = at(`${key}_smoothed`);
  if (view === 'smoothed') return smoothed;
  const population = answer.population;
  return smoothed.map((v) =>
    v == null || !(population > 0) ? null : Math.round((v * 1e9) / population) / 1000,
  );
}

/** Cumulative totals (`key`: `total_cases`, `total_deaths`): per million in the per-million views. */
export function totalValues(answer, key, view) {
  if (!perMillion(view)) return answer[key];
  return answer[`${key}_per_million`] ?? answer.weeks.map(() => null);
}

/**
 * The 7-day average at each week's end, in the view's unit (`values`: the week's sums in it): the
 * sum / 7 for a week of seven days with a record, else the answer's 7-day average at the week's
 * last record (`*_smoothed`), which is null unless each of its 7 days has one. Never the sum over
 * fewer days: the last week, still incomplete, would read as a jump.
 */
export function sevenDayAverage(answer, key, view, values) {
  const smoothed = newValues(answer, key, perMillion(view) ? 'smoothed_per_million' : 'smoothed');
  return values.map((v, i) => (answer.days[i] === 7 ? (v == null ? null : v / 7) : smoothed[i]));
}

/** The number of days with a record of the last week when fewer than 7 (still incomplete), else 0. */
export function incompleteLastWeek(answer) {
  const days = answer.days[answer.days.length - 1];
  return answer.days.length > 0 && days < 7 ? days : 0;
}

/** The unit of new figures in a view, per week (`weekly`) or per day. */
export const newUnit = (view, weekly) =>
  t(
    isSmoothed(view)
      ? perMillion(view)
        ? 'unitSmoothedPerMillion'
        : 'unitSmoothed'
      : `${weekly ? 'unitWeek' : 'unitDay'}${perMillion(view) ? 'PerMillion' : ''}`,
  );

/** The short unit of an axis (the title and legend say it in full): new figures, or totals. */
export const axisUnit = (view, kind) =>
  `${t(kind === 'total' ? 'axisTotal' : kind === 'week' && !isSmoothed(view) ? 'axisWeek' : 'axisDay')}${
    perMillion(view) ? `, ${t('axisPerMillion')}` : ''
  }`;

/** The unit of totals in a view. */
export const totalUnit = (view) => t(perMillion(view) ? 'unitTotalPerMillion' : 'unitTotal');

/** Whether a view needs the population, and the answer has none. */
export const lacksPopulation = (answer, view) => perMillion(view) && !(answer.population > 0);
