import { FieldProblem, isCalendarDate, parseInstant } from '@app/common';

/** Last millisecond of a UTC day: a date alone means the data as it stood at the end of it. */
const END_OF_DAY = 'T23:59:59.999Z';

/**
 * An `as_of` value as epoch milliseconds: `YYYY-MM-DD` (the end of that day, UTC) or an ISO 8601
 * date-time with its zone (`Z` or `±hh:mm`; a time without one would depend on the server's).
 * Undefined when it is neither.
 */
export function parseAsOf(value: unknown): number | undefined {
  if (typeof value === 'string' && isCalendarDate(value)) {
    return Date.parse(`${value}${END_OF_DAY}`);
  }
  return parseInstant(value);
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
