import { ApiError, MESSAGES, addDays } from '@app/common';
import { countryLookupKey, resolveCountry } from '@app/countries';
import { CountryLatest, CountryListItem, CountryStats, RecordReadsRepository } from '@app/database';
import { ListColumns, ListFormat, listText } from '../list-format';
import { CachedValue, ReadCache } from '../read-cache';

export const STATS_WINDOW_DAYS = 7;

const COUNTRY_LIST_COLUMNS: ListColumns<CountryListItem> = [
  'country',
  'iso2',
  'iso3',
  'records',
  'first_date',
  'last_date',
];
const COUNTRY_LATEST_COLUMNS: ListColumns<CountryLatest> = [
  'country',
  'date',
  'total_cases',
  'total_deaths',
];

/** The answers about the places of a disease: the lists of countries and a country's stats. */
export class CountriesService {
  constructor(
    private readonly repository: RecordReadsRepository,
    private readonly cache: ReadCache,
  ) {}

  /**
   * Each country's most recent totals, by name: the public pages' country picker and table of
   * countries; cached as text in `format`.
   */
  countriesList(format: ListFormat): Promise<CachedValue<string>> {
    return this.cache.getCached(`${format}:countries`, async () => {
      const latest = await this.repository.latestPerCountry();
      const list: CountryLatest[] = latest
        .map(({ country, date, total_cases, total_deaths }) => ({
          country,
          date,
          total_cases,
          total_deaths,
        }))
        .sort((a, b) => a.country.localeCompare(b.country, 'en'));
      return listText(format, COUNTRY_LATEST_COLUMNS, list);
    });
  }

  /** Each place with its ISO codes (null for a place that is not a country, e.g. a ship). */
  async countries(): Promise<CountryListItem[]> {
    return (await this.repository.countries()).map(({ country, ...rest }) => {
      const identity = resolveCountry(country);
      return { country, iso2: identity?.iso2 ?? null, iso3: identity?.iso3 ?? null, ...rest };
    });
  }

  /** `countries()` as text in `format` (read from the database each time, like `countries()`). */
  async countriesText(format: ListFormat): Promise<string> {
    return listText(format, COUNTRY_LIST_COLUMNS, await this.countries());
  }

  async stats(country: string): Promise<CountryStats> {
    const key = countryLookupKey(country);
    const [summary] = await this.repository.countries(key);
    if (!summary) throw ApiError.notFound(MESSAGES.countryNotFound);
    const [latest] = await this.repository.between(key, summary.last_date, summary.last_date);
    // Deleted or moved by a concurrent write between the two queries: as if never there.
    if (!latest) throw ApiError.notFound(MESSAGES.countryNotFound);
    const week = await this.repository.sumNew(
      key,
      addDays(summary.last_date, 1 - STATS_WINDOW_DAYS),
      summary.last_date,
    );
    return {
      ...summary,
      total_cases: latest.total_cases,
      total_deaths: latest.total_deaths,
      new_cases_7d: week.new_cases,
      new_deaths_7d: week.new_deaths,
      case_fatality_rate: latest.total_cases > 0 ? latest.total_deaths / latest.total_cases : null,
    };
  }
}
