import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalCountryName, countryLookupKey, resolveCountry } from './country-directory';

const DATA = join(__dirname, '../../../../shared/data');

function placesOf(file: string, column: string): string[] {
  const lines = gunzipSync(readFileSync(join(DATA, file)))
    .toString('utf8')
    .split('\n');
  const header = lines[0].split(',');
  const index = header.indexOf(column);
  const names = new Set<string>();
  // The places of these files have no quoted commas except JHU's `Korea, South`-like names.
  for (const line of lines.slice(1)) {
    if (!line) continue;
    const quoted = /^[^,]*,"([^"]*)"/.exec(line);
    names.add(quoted && index === 1 ? quoted[1] : line.split(',')[index]);
  }
  return [...names];
}

describe('country directory', () => {
  it.each([
    ['US', 'United States'],
    ['usa', 'United States'],
    ['United States of America', 'United States'],
    ['États-Unis', 'United States'],
    ['etats-unis', 'United States'],
    ['  USA ', 'United States'],
    ['UK', 'United Kingdom'],
    ['United Kingdom of Great Britain and Northern Ireland', 'United Kingdom'],
    ['Royaume-Uni', 'United Kingdom'],
    ['Korea, South', 'South Korea'],
    ['Republic of Korea', 'South Korea'],
    ['Corée du Sud', 'South Korea'],
    ['KOR', 'South Korea'],
    ['Russian Federation', 'Russia'],
    ['Türkiye', 'Turkey'],
    ['turkiye', 'Turkey'],
    ['Czech Republic', 'Czechia'],
    ['Côte d’Ivoire', "Côte d'Ivoire"],
    ["Cote d'Ivoire", "Côte d'Ivoire"],
    ['Taiwan*', 'Taiwan'],
    ['Burma', 'Myanmar'],
    ['Congo (Kinshasa)', 'Democratic Republic of the Congo'],
    ['Congo', 'Republic of the Congo'],
    ['Holy See', 'Vatican City'],
    ['Kosovo (in accordance with UN Security Council resolution 1244 (1999))', 'Kosovo'],
    ['Allemagne', 'Germany'],
    ['DEU', 'Germany'],
    ['de', 'Germany'],
    ['Viet Nam', 'Vietnam'],
  ])('%s is %s', (name, canonical) => {
    expect(resolveCountry(name)?.name).toBe(canonical);
  });

  it('gives Kosovo XK and XKX, and the United States US and USA', () => {
    expect(resolveCountry('Kosovo')).toEqual({ name: 'Kosovo', iso2: 'XK', iso3: 'XKX' });
    expect(resolveCountry('XKX')?.iso2).toBe('XK');
    expect(resolveCountry('United States')).toEqual({
      name: 'United States',
      iso2: 'US',
      iso3: 'USA',
    });
  });

  it('uses a source code when the name is unknown, and keeps other names as given', () => {
    expect(resolveCountry('Some WHO spelling', 'FR')?.name).toBe('France');
    expect(resolveCountry('Northern Cyprus', 'OWID_CYN')).toBeUndefined();
    expect(canonicalCountryName(' Diamond Princess ')).toBe('Diamond Princess');
    expect(countryLookupKey('DIAMOND princess')).toBe('diamond princess');
    expect(countryLookupKey('usa')).toBe('united states');
  });

  it.each([
    ['covid-jhu-2023-03-09.csv.gz', 'country'],
    ['mpox-owid-2023-11-16.csv.gz', 'country'],
  ])('recognises every place of %s', (file, column) => {
    const unknown = placesOf(file, column).filter((name) => !resolveCountry(name));
    expect(unknown).toEqual([]);
  });
});
