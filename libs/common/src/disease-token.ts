import { Inject } from '@nestjs/common';

/** A disease's key (`covid`, `mpox`), as `DiseaseDefinition['key']` spells it. */
export type DiseaseKey = string;

/**
 * The Nest token of one disease's instance of a class: each disease gets its own repositories
 * and services, bound to its tables, provided once each (`${Class.name}:${key}`).
 */
export function diseaseToken(type: abstract new (...args: never[]) => unknown, key: DiseaseKey) {
  return `${type.name}:${key}`;
}

/** Injects one disease's instance of `type` (see `diseaseToken`). */
export const InjectDisease = (
  type: abstract new (...args: never[]) => unknown,
  key: DiseaseKey,
): ParameterDecorator => Inject(diseaseToken(type, key));
