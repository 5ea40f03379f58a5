/**
 * One CSV field (RFC 4180), quoted when it holds a comma, a quote or a line break (and, for the
 * importer's sake, blanks at either end), its quotes doubled. Shared by the API's CSV lists and the
 * command line's export, which must stay byte for byte what it was.
 */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
