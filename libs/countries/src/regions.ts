import { continents, countries } from 'countries-list';
import { CountryIdentity, resolveCountry } from './country-directory';

/** The continents of `countries-list` that the series serve, by its code. */
const CONTINENTS = {
  AF: 'Africa',
  AS: 'Asia',
  EU: 'Europe',
  NA: 'North America',
  OC: 'Oceania',
  SA: 'South America',
} as const satisfies Partial<Record<keyof typeof continents, string>>;

export const WORLD = 'World';

/**
 * Each region's code, as Our World in Data names its aggregates (`iso_code` of its files):
 * `OWID_` and three letters, never an ISO 3166 code, so a join on codes cannot mistake one.
 */
const REGION_CODES = {
  World: 'OWID_WRL',
  Africa: 'OWID_AFR',
  Asia: 'OWID_ASI',
  Europe: 'OWID_EUR',
  'North America': 'OWID_NAM',
  Oceania: 'OWID_OCE',
  'South America': 'OWID_SAM',
} as const;
export const REGION_NAMES = [WORLD, ...Object.values(CONTINENTS)] as const;
export type RegionName = (typeof REGION_NAMES)[number];

/** Where the membership comes from (`GET /api/regions`, docs/figures.md). */
export const REGION_SOURCE =
  'countries-list (npm, annexare/Countries): each country’s `continent`; World: every country';

export interface Region {
  name: RegionName;
  /** Our World in Data's code of the aggregate (`OWID_WRL`...): the rows' `iso_code`. */
  code: string;
  /** Member countries, by name. */
  members: CountryIdentity[];
}

function buildRegions(): Map<string, Region> {
  const byName = new Map<string, Region>();
  const world: Region = { name: WORLD, code: REGION_CODES[WORLD], members: [] };
  byName.set(WORLD.toLowerCase(), world);
  for (const name of Object.values(CONTINENTS))
    byName.set(name.toLowerCase(), { name, code: REGION_CODES[name], members: [] });
  for (const [iso2, data] of Object.entries(countries)) {
    const identity = resolveCountry(iso2);
    if (!identity) continue;
    world.members.push(identity);
    const continent = CONTINENTS[data.continent as keyof typeof CONTINENTS];
    if (continent) byName.get(continent.toLowerCase())!.members.push(identity);
  }
  for (const region of byName.values()) {
    region.members.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  }
  return byName;
}

const regions = buildRegions();

/** The region a name stands for (case and surrounding blanks ignored), else undefined. */
export function regionNamed(name: string): Region | undefined {
  return regions.get(name.trim().replace(/\s+/g, ' ').toLowerCase());
}

/** Every region, World first, then the continents by name. */
export function allRegions(): Region[] {
  return [...regions.values()];
}
