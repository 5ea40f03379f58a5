/**
 * What a spreadsheet may run as a formula at the start of a cell (OWASP's CSV injection list:
 * `=`, `+`, `-`, `@`, tab, carriage return; and NUL, after ASVS).
 */
export const FORMULA_START = /^[=+\-@\t\r\0]/;

/**
 * One CSV field (RFC 4180), quoted when it holds a comma, a quote or a line break (and, for the
 * importer's sake, blanks at either end), its quotes doubled. A text that a spreadsheet would run
 * as a formula (`=1+2`, `-2+3`, `@cmd`) is neutralised as OWASP advises: a single quote before it,
 * and quoted. Numbers, negative ones included, are written as numbers. Shared by the API's CSV
 * lists and the command line's export.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
