import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';
import {
  CONTROL_CHARACTERS,
  addDays,
  characterLength,
  isCalendarDate,
  todayUtc,
} from '@app/common';

export const MIN_RECORD_DATE = '1900-01-01';

/** `YYYY-MM-DD`, a real calendar date; with `range`, from 1900-01-01 to tomorrow (UTC). */
export function IsApiDate(options: { range: boolean }, validation?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isApiDate',
      target: target.constructor,
      propertyName,
      options: validation,
      validator: {
        validate(value: unknown) {
          if (!isCalendarDate(value)) return false;
          return !options.range || (value >= MIN_RECORD_DATE && value <= addDays(todayUtc(), 1));
        },
        defaultMessage(args: ValidationArguments) {
          const value: unknown = args.value;
          if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
            return `${args.property} : doit être une date au format AAAA-MM-JJ`;
          }
          if (!isCalendarDate(value))
            return `${args.property} : ${String(args.value)} n'est pas une date du calendrier`;
          return `${args.property} : doit être comprise entre ${MIN_RECORD_DATE} et demain (UTC)`;
        },
      },
    });
}

/** A country name: a string of 1 to 100 characters once trimmed, with no control characters. */
export function IsCountryName(validation?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCountryName',
      target: target.constructor,
      propertyName,
      options: validation,
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string') return false;
          const trimmed = value.trim();
          const length = characterLength(trimmed);
          return length >= 1 && length <= 100 && !CONTROL_CHARACTERS.test(trimmed);
        },
        defaultMessage(args: ValidationArguments) {
          const value: unknown = args.value;
          if (typeof value !== 'string')
            return `${args.property} : doit être une chaîne de caractères`;
          if (CONTROL_CHARACTERS.test(value.trim())) {
            return `${args.property} : ne doit pas contenir de caractères de contrôle`;
          }
          return `${args.property} : doit contenir de 1 à 100 caractères`;
        },
      },
    });
}

/** A JSON integer from 0 to 2^53-1 (strings are never coerced). */
export function IsCount(validation?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCount',
      target: target.constructor,
      propertyName,
      options: validation,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isSafeInteger(value) && value >= 0,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} : doit être un entier de 0 à ${Number.MAX_SAFE_INTEGER}`,
      },
    });
}

/** A finite JSON number (negative values allowed: sources publish corrections). */
export function IsFiniteNumber(validation?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFiniteNumber',
      target: target.constructor,
      propertyName,
      options: validation,
      validator: {
        validate: (value: unknown) => typeof value === 'number' && Number.isFinite(value),
        defaultMessage: (args: ValidationArguments) => `${args.property} : doit être un nombre`,
      },
    });
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
