import { FieldProblem, parseInstant } from '@app/common';
import { ValidationArguments, ValidationError, registerDecorator } from 'class-validator';
import {
  checkApiDate,
  checkCount,
  checkCountryName,
  checkDailyFigure,
  checkRecordCountry,
} from './record-rules';
import { parseAsOf } from '../history/as-of';
import { decodeChangeCursor } from '../history/change-cursor';
import { decodeCorrectionCursor } from '../history/correction-cursor';
import { decodeVintageCursor } from '../history/vintage-cursor';
import { parseVintageFields } from '../history/vintages.service';
import { VINTAGE_FIELDS } from '@app/database';
import { LIST_FORMATS, isListFormat } from '../list-format';
import { parseMetrics } from '../derived-figures/figure-metrics';
import { decodeFigureCursor } from '../derived-figures/figure-cursor';
import { decodeCursor } from '@app/database';

type Rule = (value: unknown, field: string) => FieldProblem | undefined;

/** What a rule's decorator leaves in the `contexts` of a failed check. */
interface RuleContext {
  rule: Rule;
}

/**
 * A class-validator decorator from one of the rules. class-validator keeps only text per failed
 * check; the rule rides along in its context so that `failedRules` can give the problem as data.
 */
function ruleDecorator(name: string, rule: Rule) {
  const context: RuleContext = { rule };
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { context },
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          rule(value, args?.property ?? propertyName) === undefined,
        // Not shown to anyone, but class-validator leaves out the context of a check without one.
        defaultMessage: () => name,
      },
    });
}

/**
 * What is wrong with a field that failed its checks, one problem per failed check: the rule says
 * it again from the value (checks from other decorators are only `invalid`).
 */
export function failedRules(error: ValidationError): FieldProblem[] {
  return Object.keys(error.constraints ?? {}).map((check) => {
    const context = error.contexts?.[check] as Partial<RuleContext> | undefined;
    return (
      context?.rule?.(error.value, error.property) ?? { field: error.property, problem: 'invalid' }
    );
  });
}

/** `YYYY-MM-DD`, a real calendar date; with `range`, from 1900-01-01 to tomorrow (UTC). */
export function IsApiDate(options: { range: boolean }) {
  return ruleDecorator('isApiDate', (value, field) => checkApiDate(value, options.range, field));
}

/** A country name: a string of 1 to 100 characters once trimmed, with no control characters. */
export function IsCountryName() {
  return ruleDecorator('isCountryName', checkCountryName);
}

/** A record's country: a country name that does not start with `=`, `+`, `-` or `@`. */
export function IsRecordCountry() {
  return ruleDecorator('isRecordCountry', checkRecordCountry);
}

/** A JSON integer from 0 to FIGURE_MAX, 10^12 (strings are never coerced). */
export function IsCount() {
  return ruleDecorator('isCount', checkCount);
}

/** A JSON number from -10^12 to 10^12, FIGURE_MAX (negative values allowed: sources publish corrections). */
export function IsDailyFigure() {
  return ruleDecorator('isDailyFigure', checkDailyFigure);
}

/** An integer in [min, 2^53-1]; query and path strings are converted before this runs. */
export function IsIntegerFrom(min: number) {
  return ruleDecorator('isIntegerFrom', (value, field) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min
      ? undefined
      : { field, problem: 'not-an-integer-from', min },
  );
}

/** Turns a strict decimal string into a number; anything else is left for the validator to refuse. */
export const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;

/** `json`, `csv` or `ndjson` (a list's `format`). */
export function IsListFormat() {
  return ruleDecorator('isListFormat', (value, field) =>
    isListFormat(value) ? undefined : { field, problem: 'not-one-of', values: LIST_FORMATS },
  );
}

/** A cursor this API wrote in a `Link` header (a list's `after`). */
export function IsListCursor() {
  return ruleDecorator('isListCursor', (value, field) =>
    decodeCursor(value) ? undefined : { field, problem: 'not-a-cursor' },
  );
}

/**
 * An instant, as a date (its end, UTC) or a date-time with its zone (`as_of`). Not whether it is
 * past: the API's pipe remembers its outcomes, and a future instant stops being one.
 */
export function IsAsOf() {
  return ruleDecorator('isAsOf', (value, field) =>
    parseAsOf(value) === undefined ? { field, problem: 'not-an-instant' } : undefined,
  );
}

/** An integer in [min, max]; query and path strings are converted before this runs. */
export function IsIntegerInRange(min: number, max: number) {
  return ruleDecorator('isIntegerInRange', (value, field) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? undefined
      : { field, problem: 'not-an-integer-in-range', min, max },
  );
}

/**
 * An ISO 8601 date or date-time (`parseInstant`). Not whether it is past: checked per request
 * (`RevisionsService.changes`), as for `as_of`.
 */
export function IsInstant() {
  return ruleDecorator('isInstant', (value, field) =>
    parseInstant(value) === undefined ? { field, problem: 'not-an-instant' } : undefined,
  );
}

/** A cursor this API wrote in the change feed (its `after`). */
export function IsChangeCursor() {
  return ruleDecorator('isChangeCursor', (value, field) =>
    decodeChangeCursor(value) ? undefined : { field, problem: 'not-a-cursor' },
  );
}

/** One of `values` (a query's enumerated parameter: `period`...). */
export function IsOneOf(values: readonly string[]) {
  return ruleDecorator('isOneOf', (value, field) =>
    typeof value === 'string' && values.includes(value)
      ? undefined
      : { field, problem: 'not-one-of', values },
  );
}

/** A comma-separated list of metrics (`/series`' `metrics`): names every unknown one. */
export function IsMetricList() {
  return ruleDecorator('isMetricList', (value, field) => {
    if (typeof value !== 'string') return { field, problem: 'not-a-string' };
    if (value.length > 1000) return { field, problem: 'length-out-of-range', min: 0, max: 1000 };
    const parsed = parseMetrics(value);
    if (!('unknown' in parsed)) return undefined;
    const names = parsed.unknown.slice(0, 10).map((name) => name.slice(0, 40));
    return { field, problem: 'unknown-metric', names };
  });
}

/** A cursor this API wrote in a series' `Link` header (its `after`). */
export function IsFigureCursor() {
  return ruleDecorator('isFigureCursor', (value, field) =>
    decodeFigureCursor(value) ? undefined : { field, problem: 'not-a-cursor' },
  );
}

/** A cursor this API wrote in the corrections' list (its `after`). */
export function IsCorrectionCursor() {
  return ruleDecorator('isCorrectionCursor', (value, field) =>
    decodeCorrectionCursor(value) ? undefined : { field, problem: 'not-a-cursor' },
  );
}

/** A cursor this API wrote in the list of versions (`/vintages`' `after`). */
export function IsVintageCursor() {
  return ruleDecorator('isVintageCursor', (value, field) =>
    decodeVintageCursor(value) ? undefined : { field, problem: 'not-a-cursor' },
  );
}

/** A comma-separated list of stored figures (`/vintages`' `fields`). */
export function IsVintageFieldList() {
  return ruleDecorator('isVintageFieldList', (value, field) => {
    if (typeof value !== 'string') return { field, problem: 'not-a-string' };
    if (value.length > 200) return { field, problem: 'length-out-of-range', min: 0, max: 200 };
    return 'unknown' in parseVintageFields(value)
      ? { field, problem: 'not-one-of', values: VINTAGE_FIELDS }
      : undefined;
  });
}
