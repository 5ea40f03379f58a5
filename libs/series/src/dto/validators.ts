import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';
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
 * The decorators below and `recordProblems` (imports) share them, so the rules exist once.
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

type ProblemCheck = (value: unknown, property: string) => string | undefined;

/** A class-validator decorator from one of the rules above. */
function ruleDecorator(name: string, check: ProblemCheck, validation?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: validation,
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          check(value, args?.property ?? propertyName) === undefined,
        defaultMessage: (args: ValidationArguments) =>
          check(args.value, args.property) ?? `${args.property} : valeur invalide`,
      },
    });
}

/** `YYYY-MM-DD`, a real calendar date; with `range`, from 1900-01-01 to tomorrow (UTC). */
export function IsApiDate(options: { range: boolean }, validation?: ValidationOptions) {
  return ruleDecorator(
    'isApiDate',
    (value, property) => apiDateProblem(value, options.range, property),
    validation,
  );
}

/** A country name: a string of 1 to 100 characters once trimmed, with no control characters. */
export function IsCountryName(validation?: ValidationOptions) {
  return ruleDecorator('isCountryName', countryNameProblem, validation);
}

/** A JSON integer from 0 to 2^53-1 (strings are never coerced). */
export function IsCount(validation?: ValidationOptions) {
  return ruleDecorator('isCount', countProblem, validation);
}

/** A finite JSON number (negative values allowed: sources publish corrections). */
export function IsFiniteNumber(validation?: ValidationOptions) {
  return ruleDecorator('isFiniteNumber', finiteNumberProblem, validation);
}

/** An integer in [min, 2^53-1]; query and path strings are converted before this runs. */
export function IsIntegerFrom(min: number, validation?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIntegerFrom',
      target: target.constructor,
      propertyName,
      options: validation,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isSafeInteger(value) && value >= min,
        defaultMessage: (args: ValidationArguments) =>
          min > 0
            ? `${args.property} : doit être un entier strictement positif`
            : `${args.property} : doit être un entier positif ou nul`,
      },
    });
}

/** Turns a strict decimal string into a number; anything else is left for the validator to refuse. */
export const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
