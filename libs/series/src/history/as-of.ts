import { FieldProblem, isCalendarDate } from '@app/common';

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Last millisecond of a UTC day: a date alone means the data as it stood at the end of it. */
const END_OF_DAY = 'T23:59:59.999Z';

/**
 * An `as_of` value as epoch milliseconds: `YYYY-MM-DD` (the end of that day, UTC) or an ISO 8601
 * date-time with its zone (`Z` or `±hh:mm`; a time without one would depend on the server's).
 * Undefined when it is neither.
 */
export function parseAsOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (isCalendarDate(value)) return Date.parse(`${value}${END_OF_DAY}`);
  const match = DATE_TIME.exec(value);
  if (!match || !isCalendarDate(match[1])) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** What is wrong with an `as_of` value: not an instant, or one still to come (nothing is known). */
export function checkAsOf(
  value: unknown,
  field: string,
  now = Date.now(),
): FieldProblem | undefined {
  const ms = parseAsOf(value);
  if (ms === undefined) return { field, problem: 'not-an-instant' };
  if (ms > now) return { field, problem: 'in-the-future' };
  return undefined;
}
