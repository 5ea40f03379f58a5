import { ValidationError } from 'class-validator';
import { FieldProblem, problemMessage } from '@app/common';
import { failedRules } from '@app/diseases';

/** A field without a value is required; otherwise the rules it failed, as data. */
export function fieldProblems(errors: ValidationError[]): FieldProblem[] {
  return errors.flatMap((error) =>
    error.value === undefined
      ? [{ field: error.property, problem: 'required' as const }]
      : failedRules(error),
  );
}

/** Problems worded by the one catalogue; unknown fields cut to 100 characters may read the same. */
export function wording(problems: FieldProblem[]): string[] {
  return [...new Set(problems.map(problemMessage))];
}
