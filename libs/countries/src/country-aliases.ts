/**
 * The spellings the sources use that `i18n-iso-countries` does not know, and the names it gives
 * to more than one country. Keys are matched after `normaliseCountryName`; values are ISO 3166-1
 * alpha-2 codes. Sources: JHU CSSE (`US`, `Korea, South`, `Taiwan*`...), Our World in Data
 * (`Democratic Republic of Congo`, `Micronesia (country)`...), the WHO (`Viet Nam`,
 * `Kosovo (in accordance with...)`...), and names people commonly type.
 */
export const COUNTRY_ALIASES: Record<string, string> = {
  // JHU CSSE
  burma: 'MM',
  'congo (brazzaville)': 'CG',
  'congo (kinshasa)': 'CD',
  'holy see': 'VA',
  'korea, north': 'KP',
  'korea, south': 'KR',
  'taiwan*': 'TW',
  'west bank and gaza': 'PS',
  micronesia: 'FM',
  brunei: 'BN',
  'cabo verde': 'CV',
  laos: 'LA',
  syria: 'SY',
  moldova: 'MD',
  // Our World in Data (its `Congo` is Brazzaville, as the WHO's)
  congo: 'CG',
  'democratic republic of congo': 'CD',
  'micronesia (country)': 'FM',
  timor: 'TL',
  vatican: 'VA',
  // WHO
  'united kingdom of great britain and northern ireland': 'GB',
  "democratic people's republic of korea": 'KP',
  'viet nam': 'VN',
  'iran (islamic republic of)': 'IR',
  'bolivia (plurinational state of)': 'BO',
  'venezuela (bolivarian republic of)': 'VE',
  'kosovo (in accordance with un security council resolution 1244 (1999))': 'XK',
  'kosovo (in accordance with security council resolution 1244 (1999))': 'XK',
  'kosovo[1]': 'XK',
  'occupied palestinian territory, including east jerusalem': 'PS',
  'occupied palestinian territory': 'PS',
  'republic of moldova': 'MD',
  'micronesia (federated states of)': 'FM',
  'bonaire, saint eustatius and saba': 'BQ',
  'pitcairn islands': 'PN',
  'saint helena, ascension and tristan da cunha': 'SH',
  'united states virgin islands': 'VI',
  'british virgin islands': 'VG',
  'northern mariana islands (commonwealth of the)': 'MP',
  'china, hong kong sar': 'HK',
  'china, macao sar': 'MO',
  // Common English and French names
  britain: 'GB',
  'great britain': 'GB',
  'vatican city': 'VA',
  macau: 'MO',
  swaziland: 'SZ',
  macedonia: 'MK',
  'east timor': 'TL',
  'etats-unis': 'US',
  'etats unis': 'US',
  'grande-bretagne': 'GB',
};

/**
 * The canonical name of each country whose first English name in `i18n-iso-countries` is not the
 * common short name (`United States of America` -> `United States`). Every other country keeps the
 * library's first English name.
 */
export const CANONICAL_NAMES: Record<string, string> = {
  BN: 'Brunei',
  CG: 'Republic of the Congo',
  CI: "Côte d'Ivoire",
  CN: 'China',
  CV: 'Cabo Verde',
  CZ: 'Czechia',
  FK: 'Falkland Islands',
  FM: 'Micronesia',
  GM: 'Gambia',
  IR: 'Iran',
  LA: 'Laos',
  MD: 'Moldova',
  MK: 'North Macedonia',
  PS: 'Palestine',
  RE: 'Réunion',
  RU: 'Russia',
  SY: 'Syria',
  TR: 'Turkey',
  TW: 'Taiwan',
  TZ: 'Tanzania',
  US: 'United States',
  VA: 'Vatican City',
  VG: 'British Virgin Islands',
  VI: 'United States Virgin Islands',
};

/** Alpha-3 codes the library gets wrong or lacks: Kosovo's user-assigned code is XKX. */
export const ALPHA3_OVERRIDES: Record<string, string> = { XK: 'XKX' };

/** Codes the sources write for places that have an ISO code of their own. */
export const CODE_ALIASES: Record<string, string> = { XKK: 'XK', OWID_KOS: 'XK' };
