const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (2021-02-30 is not one). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Proleptic Gregorian calendar, years 0000 to 9999 (`Date.UTC` would read 0 to 99 as 1900s). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `YYYY-MM-DD` shifted by whole days (UTC). */
export function addDays(date: string, days: number): string {
  const time = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(time).toISOString().slice(0, 10);
}

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

const INSTANT = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d))?$/;

/**
 * Epoch milliseconds of an ISO 8601 date (the start of that day, UTC) or date-time with its
 * offset (`Z` or `+01:00`), or undefined for anything else.
 */
export function parseInstant(text: unknown): number | undefined {
  if (typeof text !== 'string' || !INSTANT.test(text)) return undefined;
  if (!isCalendarDate(text.slice(0, 10))) return undefined;
  const ms = Date.parse(text.includes('T') ? text : `${text}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : ms;
}
