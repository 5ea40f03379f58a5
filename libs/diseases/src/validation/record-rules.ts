import {
  CONTROL_CHARACTERS,
  FORMULA_START,
  FieldProblem,
  addDays,
  characterLength,
  isCalendarDate,
  todayUtc,
} from '@app/common';

export const MIN_RECORD_DATE = '1900-01-01';
/** Length of a country name once trimmed, in characters. */
const COUNTRY_NAME_LENGTH = { min: 1, max: 100 };

let latest = { until: 0, date: '' };

/** Tomorrow (UTC), the latest accepted record date; recomputed when the day changes. */
function latestRecordDate(): string {
  const now = Date.now();
  if (now >= latest.until) {
    const today = todayUtc(new Date(now));
    latest = { until: Date.parse(`${today}T00:00:00Z`) + 86_400_000, date: addDays(today, 1) };
  }
  return latest.date;
}

/**
 * The record rules as plain functions: each returns what is wrong with the value, as data (the
 * edge words it), or undefined. The class-validator decorators and `recordProblems` (imports)
 * share them: one set of rules.
 */
export function checkApiDate(
  value: unknown,
  range: boolean,
  field: string,
): FieldProblem | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return { field, problem: 'not-a-date' };
  }
  if (!isCalendarDate(value)) return { field, problem: 'not-a-calendar-date', value };
  if (range && (value < MIN_RECORD_DATE || value > latestRecordDate())) {
    return { field, problem: 'date-out-of-range', earliest: MIN_RECORD_DATE };
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function checkCountryName(value: unknown, field: string): FieldProblem | undefined {
  if (typeof value !== 'string') return { field, problem: 'not-a-string' };
  const trimmed = value.trim();
  if (CONTROL_CHARACTERS.test(trimmed)) return { field, problem: 'control-character' };
  // JSON may escape half of a character ("\ud800"): it could only be stored altered.
  if (LONE_SURROGATE.test(trimmed)) return { field, problem: 'lone-surrogate' };
  const length = characterLength(trimmed);
  const { min, max } = COUNTRY_NAME_LENGTH;
  if (length < min || length > max) return { field, problem: 'length-out-of-range', min, max };
  return undefined;
}

/**
 * The country of a record written (API or import): a country name that no spreadsheet would run
 * as a formula, i.e. not starting with `=`, `+`, `-` or `@` once trimmed (a tab or a carriage
 * return is trimmed or refused as a control character). No place is named so; lookups keep
 * `checkCountryName`, so that a record stored before this rule can still be found.
 */
export function checkRecordCountry(value: unknown, field: string): FieldProblem | undefined {
  const problem = checkCountryName(value, field);
  if (problem) return problem;
  return FORMULA_START.test((value as string).trim())
    ? { field, problem: 'formula-start' }
    : undefined;
}

/**
 * The largest magnitude of a figure, 10^12: far above any real count (the world holds under 10^10
 * people), and low enough that the sums the API answers stay exact integers in a double (below
 * 2^53): a week of 7 days over a thousand places at the bound is 7 x 10^15 (decision 0044).
 */
export const FIGURE_MAX = 1_000_000_000_000;

export function checkCount(value: unknown, field: string): FieldProblem | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= FIGURE_MAX
    ? undefined
    : { field, problem: 'not-an-integer-in-range', min: 0, max: FIGURE_MAX };
}

export function checkDailyFigure(value: unknown, field: string): FieldProblem | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return { field, problem: 'not-a-number' };
  return Math.abs(value) <= FIGURE_MAX
    ? undefined
    : { field, problem: 'number-out-of-range', min: -FIGURE_MAX, max: FIGURE_MAX };
}
