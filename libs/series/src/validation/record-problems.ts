import { RecordValues } from '../series.types';
import {
  apiDateProblem,
  countProblem,
  countryNameProblem,
  finiteNumberProblem,
} from './record-rules';

/**
 * The problems of a record built outside HTTP (the command line's imports): the same rules and
 * messages as a POST body (`RecordBodyDto`), called directly because an import checks hundreds of
 * thousands of rows. Empty when the record is valid.
 */
export function recordProblems(values: RecordValues): string[] {
  const problems = [
    apiDateProblem(values.date, true, 'date'),
    countryNameProblem(values.country, 'country'),
    countProblem(values.total_cases, 'total_cases'),
    finiteNumberProblem(values.new_cases, 'new_cases'),
    countProblem(values.total_deaths, 'total_deaths'),
    finiteNumberProblem(values.new_deaths, 'new_deaths'),
  ];
  return problems.filter((p): p is string => p !== undefined);
}
