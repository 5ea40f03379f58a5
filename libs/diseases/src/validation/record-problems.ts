import { FieldProblem, problemMessage } from '@app/common';
import {
  checkApiDate,
  checkCount,
  checkCountryName,
  checkDailyFigure,
  checkRecordCountry,
} from './record-rules';
import { RecordValues } from '@app/database';

/**
 * The problems of a record built outside HTTP (the command line's imports), worded as in a 400
 * answer: the same rules as a POST body, called directly because an import checks hundreds of
 * thousands of rows. Empty when the record is valid.
 */
export function recordProblems(values: RecordValues): string[] {
  const problems = [
    checkApiDate(values.date, true, 'date'),
    checkRecordCountry(values.country, 'country'),
    checkCount(values.total_cases, 'total_cases'),
    checkDailyFigure(values.new_cases, 'new_cases'),
    checkCount(values.total_deaths, 'total_deaths'),
    checkDailyFigure(values.new_deaths, 'new_deaths'),
  ];
  return problems.filter((p): p is FieldProblem => p !== undefined).map(problemMessage);
}

/** A record date's problem, worded (the importer's checks of a row before its figures). */
export function apiDateProblem(value: unknown, range: boolean, field: string): string | undefined {
  const problem = checkApiDate(value, range, field);
  return problem && problemMessage(problem);
}

/** A country name's problem, worded (the importer's and the command line's checks). */
export function countryNameProblem(value: unknown, field: string): string | undefined {
  const problem = checkCountryName(value, field);
  return problem && problemMessage(problem);
}
