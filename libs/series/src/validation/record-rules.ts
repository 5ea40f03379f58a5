import {
  CONTROL_CHARACTERS,
  addDays,
  characterLength,
  isCalendarDate,
  todayUtc,
} from '@app/common';

export const MIN_RECORD_DATE = '1900-01-01';

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
 * The record rules as plain functions: each returns the problem (`field : message`) or undefined.
 * The class-validator decorators and `recordProblems` (imports) share them: one set of rules.
 */
export function apiDateProblem(
  value: unknown,
  range: boolean,
  property: string,
): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return `${property} : doit être une date au format AAAA-MM-JJ`;
  }
  if (!isCalendarDate(value))
    return `${property} : ${String(value)} n'est pas une date du calendrier`;
  if (range && (value < MIN_RECORD_DATE || value > latestRecordDate())) {
    return `${property} : doit être comprise entre ${MIN_RECORD_DATE} et demain (UTC)`;
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function countryNameProblem(value: unknown, property: string): string | undefined {
  if (typeof value !== 'string') return `${property} : doit être une chaîne de caractères`;
  const trimmed = value.trim();
  if (CONTROL_CHARACTERS.test(trimmed)) {
    return `${property} : ne doit pas contenir de caractères de contrôle`;
  }
  // JSON may escape half of a character ("\ud800"): it could only be stored altered.
  if (LONE_SURROGATE.test(trimmed)) {
    return `${property} : ne doit pas contenir de demi-caractère Unicode isolé`;
  }
  const length = characterLength(trimmed);
  if (length < 1 || length > 100) return `${property} : doit contenir de 1 à 100 caractères`;
  return undefined;
}

export function countProblem(value: unknown, property: string): string | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? undefined
    : `${property} : doit être un entier de 0 à ${Number.MAX_SAFE_INTEGER}`;
}

export function finiteNumberProblem(value: unknown, property: string): string | undefined {
  return typeof value === 'number' && Number.isFinite(value)
    ? undefined
    : `${property} : doit être un nombre`;
}
