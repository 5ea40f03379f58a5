import * as isoCountries from 'i18n-iso-countries';
import { countryKey } from '@app/common';
import {
  ALPHA3_OVERRIDES,
  CANONICAL_NAMES,
  CODE_ALIASES,
  COUNTRY_ALIASES,
} from './country-aliases';

/** A recognised country: its canonical name and ISO 3166-1 codes. */
export interface CountryIdentity {
  name: string;
  iso2: string;
  iso3: string;
}

/**
 * How names are compared: accents and letter case ignored, curly apostrophes straightened, inner
 * blanks collapsed, surrounding blanks trimmed (`  États-Unis ` and `etats-unis` are one name).
 */
export function normaliseCountryName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function identityOf(iso2: string): CountryIdentity {
  const iso3 = ALPHA3_OVERRIDES[iso2] ?? isoCountries.alpha2ToAlpha3(iso2);
  const name = CANONICAL_NAMES[iso2] ?? isoCountries.getName(iso2, 'en');
  if (!iso3 || !name) throw new Error(`no ISO data for ${iso2}`);
  return { name, iso2, iso3 };
}

/** Built once: every name, code and alias, normalised, to its country; ambiguous names left out. */
function buildDirectory(): {
  byName: Map<string, CountryIdentity>;
  byCode: Map<string, CountryIdentity>;
} {
  const identities = new Map<string, CountryIdentity>();
  for (const iso2 of Object.keys(isoCountries.getAlpha2Codes()))
    identities.set(iso2, identityOf(iso2));

  const candidates = new Map<string, Set<string>>();
  const add = (name: string, iso2: string) => {
    const key = normaliseCountryName(name);
    if (key) candidates.set(key, (candidates.get(key) ?? new Set()).add(iso2));
  };
  for (const lang of ['en', 'fr']) {
    for (const [iso2, names] of Object.entries(isoCountries.getNames(lang, { select: 'all' }))) {
      for (const name of names) add(name, iso2);
    }
  }
  for (const identity of identities.values()) add(identity.name, identity.iso2);

  const byName = new Map<string, CountryIdentity>();
  for (const [key, codes] of candidates) {
    if (codes.size === 1) byName.set(key, identities.get([...codes][0])!);
  }
  // The aliases settle what the library leaves ambiguous (`Congo`) or does not know.
  for (const [alias, iso2] of Object.entries(COUNTRY_ALIASES)) {
    byName.set(normaliseCountryName(alias), identities.get(iso2)!);
  }

  const byCode = new Map<string, CountryIdentity>();
  for (const identity of identities.values()) {
    byCode.set(identity.iso2, identity);
    byCode.set(identity.iso3, identity);
  }
  for (const [code, iso2] of Object.entries(CODE_ALIASES)) byCode.set(code, identities.get(iso2)!);
  for (const [code, identity] of byCode) byName.set(code.toLowerCase(), identity);
  return { byName, byCode };
}

const directory = buildDirectory();

/**
 * The country a name (any known spelling, English or French, ISO alpha-2 or alpha-3 code) stands
 * for; else the country of `code` (a source's ISO code column); else undefined (not a country,
 * unknown, or ambiguous).
 */
export function resolveCountry(name: string, code?: string): CountryIdentity | undefined {
  return (
    directory.byName.get(normaliseCountryName(name)) ??
    (code ? directory.byCode.get(code.trim().toUpperCase()) : undefined)
  );
}

/** Names seen by `canonicalCountryName`: writes repeat the same few hundred on every row. */
const canonicalByName = new Map<string, string>();
const CANONICAL_MEMO_SIZE = 10_000;

/** The name a country is stored under: its canonical name when recognised, else as given (trimmed). */
export function canonicalCountryName(name: string, code?: string): string {
  if (code !== undefined) return resolveCountry(name, code)?.name ?? name.trim();
  let canonical = canonicalByName.get(name);
  if (canonical === undefined) {
    canonical = resolveCountry(name)?.name ?? name.trim();
    if (canonicalByName.size >= CANONICAL_MEMO_SIZE) canonicalByName.clear();
    canonicalByName.set(name, canonical);
  }
  return canonical;
}

/**
 * The key a country given by a client is looked up under: its canonical name's when recognised,
 * else today's key of the name as given (an unrecognised stored place such as `Diamond Princess`).
 */
export function countryLookupKey(name: string): string {
  return countryKey(canonicalCountryName(name));
}

/** All recognised countries, for documentation and tests. */
export function allCountries(): CountryIdentity[] {
  return [...new Set(directory.byCode.values())];
}

/** A country's name in French (ISO's French short name), or its canonical one without it. */
export function frenchCountryName(identity: CountryIdentity): string {
  return isoCountries.getName(identity.iso2, 'fr') ?? identity.name;
}
