import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';
import {
  apiDateProblem,
  countProblem,
  countryNameProblem,
  finiteNumberProblem,
} from './record-rules';

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
