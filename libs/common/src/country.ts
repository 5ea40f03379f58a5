/** The key under which a country is unique and looked up: trimmed, Unicode-normalised, lower case. */
export function countryKey(country: string): string {
  return country.trim().normalize('NFC').toLowerCase();
}

// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Length in characters (code points), as MySQL counts VARCHAR(100). */
export function characterLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}
