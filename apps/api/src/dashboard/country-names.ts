import { allCountries, frenchCountryName } from '@app/countries';

/**
 * The pages' country names in French, by the canonical (English) name the API answers with: the
 * pages translate what they show, the API keeps one name per country.
 */
export function countryNames(): Buffer {
  const fr: Record<string, string> = {};
  for (const identity of allCountries()) fr[identity.name] = frenchCountryName(identity);
  return Buffer.from(JSON.stringify({ fr }));
}
