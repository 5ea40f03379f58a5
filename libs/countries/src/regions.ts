import { CountryIdentity, allCountries, resolveCountry } from './country-directory';
import { EU_MEMBERS, OWID_CONTINENTS, WHO_REGIONS } from './region-tables';

export const WORLD = 'World';

/** The groupings regions come in (`GET /api/regions`). */
export const REGION_GROUPINGS = ['world', 'continent', 'union', 'who'] as const;
export type RegionGrouping = (typeof REGION_GROUPINGS)[number];

export interface Region {
  /** The name the region is stored and answered under (`region_members`, `/series` rows). */
  name: string;
  /** Its short code, accepted wherever its name is. */
  code: string;
  /** Our World in Data's code of its aggregate row (`OWID_WRL`...), the `/series` rows' `iso_code`; null where OWID has none (WHO's regions). */
  owidCode: string | null;
  grouping: RegionGrouping;
  /** Other names and codes it is known by (WHO's newer codes, OWID's code...), case ignored. */
  aliases: string[];
  /** Member countries, by name. */
  members: CountryIdentity[];
  /** Where the membership comes from. */
  source: string;
  /** Where the membership knowingly differs from its source's. */
  deviations: string[];
}

const OWID_SOURCE =
  "Our World in Data's continents (owid/covid-19-data, scripts/input/owid/continents.csv), " +
  'the list its continent rows are summed over';

/** OWID's codes of its continent rows: the continents' short codes (ISO codes take AF, NA, SA). */
const CONTINENT_CODES: Record<keyof typeof OWID_CONTINENTS, string> = {
  Africa: 'OWID_AFR',
  Asia: 'OWID_ASI',
  Europe: 'OWID_EUR',
  'North America': 'OWID_NAM',
  Oceania: 'OWID_OCE',
  'South America': 'OWID_SAM',
};

const CONTINENT_DEVIATIONS: Partial<Record<keyof typeof OWID_CONTINENTS, string[]>> = {
  Asia: [
    'Northern Cyprus (OWID_CYN), in Asia for OWID, is not a country here: its records, if any, ' +
      'are a stored place of no region',
  ],
};

const WHO_SOURCE =
  "WHO's COVID-19 data (WHO_region of WHO-COVID-19-global-data.csv; the places it does not list " +
  "from the WHO COVID-19 dashboard's map)";

/** WHO's regions: their names as WHO writes them, and WHO's newer codes (its weekly files). */
const WHO_NAMES: Record<keyof typeof WHO_REGIONS, { name: string; newer: string }> = {
  AFRO: { name: 'African Region', newer: 'AFR' },
  AMRO: { name: 'Region of the Americas', newer: 'AMR' },
  EMRO: { name: 'Eastern Mediterranean Region', newer: 'EMR' },
  EURO: { name: 'European Region', newer: 'EUR' },
  SEARO: { name: 'South-East Asia Region', newer: 'SEAR' },
  WPRO: { name: 'Western Pacific Region', newer: 'WPR' },
};

const WHO_DEVIATIONS: Partial<Record<keyof typeof WHO_REGIONS, string[]>> = {
  SEARO: [
    "Indonesia stays here as in WHO's COVID-19 files; WHO moved it to the Western Pacific " +
      'Region in May 2025',
  ],
};

function identities(iso3s: readonly string[]): CountryIdentity[] {
  return iso3s.map((iso3) => {
    const identity = resolveCountry(iso3);
    if (!identity) throw new Error(`regions: ${iso3} is not a country of the directory`);
    return identity;
  });
}

function buildRegions(): Region[] {
  const regions: Region[] = [
    {
      name: WORLD,
      code: 'OWID_WRL',
      owidCode: 'OWID_WRL',
      grouping: 'world',
      aliases: [],
      members: allCountries(),
      source: 'Every country of the country directory (i18n-iso-countries, and Kosovo)',
      deviations: [],
    },
  ];
  for (const [name, iso3s] of Object.entries(OWID_CONTINENTS)) {
    const continent = name as keyof typeof OWID_CONTINENTS;
    regions.push({
      name,
      code: CONTINENT_CODES[continent],
      owidCode: CONTINENT_CODES[continent],
      grouping: 'continent',
      aliases: [],
      members: identities(iso3s),
      source: OWID_SOURCE,
      deviations: CONTINENT_DEVIATIONS[continent] ?? [],
    });
  }
  regions.push({
    name: 'European Union',
    code: 'EU',
    owidCode: 'OWID_EUN',
    grouping: 'union',
    aliases: ['European Union (27)', 'OWID_EUN'],
    members: identities(EU_MEMBERS),
    source:
      "The European Union's 27 member states since 2020-02-01, as OWID's European Union (27) " +
      'row (owid/covid-19-data, scripts/input/owid/eu_countries.csv)',
    deviations: [],
  });
  for (const [code, iso3s] of Object.entries(WHO_REGIONS)) {
    const who = code as keyof typeof WHO_REGIONS;
    regions.push({
      name: WHO_NAMES[who].name,
      code,
      owidCode: null,
      grouping: 'who',
      aliases: [WHO_NAMES[who].newer],
      members: identities(iso3s),
      source: WHO_SOURCE,
      deviations: WHO_DEVIATIONS[who] ?? [],
    });
  }
  for (const region of regions) {
    region.members.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  }
  return regions;
}

const regionKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

const regions = buildRegions();
const byName = new Map<string, Region>();
for (const region of regions) {
  for (const name of [region.name, region.code, ...region.aliases]) {
    if (byName.has(regionKey(name))) throw new Error(`regions: ${name} is named twice`);
    byName.set(regionKey(name), region);
  }
}

/** Every name and code a region is known by (`/series`'s `country`). */
export const REGION_NAMES: readonly string[] = regions.flatMap((r) => [r.name, r.code]);

/** The region a name or code stands for (case and surrounding blanks ignored), else undefined. */
export function regionNamed(name: string): Region | undefined {
  return byName.get(regionKey(name));
}

/** Every region: World, the continents by name, the European Union, WHO's regions by code. */
export function allRegions(): Region[] {
  return regions;
}
