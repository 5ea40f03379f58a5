/**
 * What is wrong with one field of a request or of an imported record, as data: a code and what
 * the wording needs. Rules and pipes produce these; `problemMessage` alone turns them into text.
 */
export type FieldProblem = { field: string } & (
  | { problem: 'required' }
  | { problem: 'unknown' }
  | { problem: 'unknown-parameter' }
  | { problem: 'not-plain' }
  | { problem: 'not-a-date' }
  | { problem: 'not-a-calendar-date'; value: string }
  | { problem: 'date-out-of-range'; earliest: string }
  | { problem: 'not-a-string' }
  | { problem: 'control-character' }
  | { problem: 'lone-surrogate' }
  | { problem: 'formula-start' }
  | { problem: 'length-out-of-range'; min: number; max: number }
  | { problem: 'not-an-integer-in-range'; min: number; max: number }
  | { problem: 'not-an-integer-from'; min: number }
  | { problem: 'not-a-number' }
  | { problem: 'number-out-of-range'; min: number; max: number }
  | { problem: 'later-than'; other: string }
  | { problem: 'not-one-of'; values: readonly string[] }
  | { problem: 'not-a-cursor' }
  | { problem: 'not-with'; other: string }
  | { problem: 'not-an-instant' }
  | { problem: 'in-the-future' }
  | { problem: 'before-kept-history'; since: string }
  | { problem: 'invalid' }
  | { problem: 'unknown-metric'; names: readonly string[] }
  | { problem: 'not-a-place' }
);
