import { Injectable } from '@nestjs/common';
import { ApiError, MESSAGES, addDays, ConcurrencyLimit } from '@app/common';
import { WORLD, countryLookupKey, regionNamed, resolveCountry } from '@app/countries';
import {
  PopulationRow,
  isUniqueViolation,
  ChangeOrigin,
  ListQuery,
  RECORD_COLUMNS,
  RecordRevision,
  RecordValues,
  SeriesDefinition,
  SeriesRecord,
  SeriesSummary,
  Totals,
  RecordReadsRepository,
} from '@app/database';
import { ChangeFeedQuery } from '../history/change-feed';
import { RevisionReads } from '../history/revision-reads.service';
import { FeedBody, ListFormat, listText } from '../list-format';
import { CachedValue, ReadCache } from '../read-cache';
import { weeklySeries } from '../weekly/weekly-series';
import { SeriesCorrections } from '../history/series-corrections';
import { SeriesVintages } from '../history/series-vintages';
import { FigureBody, FigureQuery, MapQuery, SeriesFigures } from '../figures/series-figures';
import { RecordWriter } from '../writes/record-writer.service';
import { ListBody, RecordLists } from './record-lists.service';
import { CountryAnswers } from './country-answers';

export const LATEST_COUNT = 10;
export const COUNTRY_WINDOW_DAYS = 30;
export const TOP_COUNTRIES = 5;
export { MAX_BULK_RECORDS } from '@app/common';

/** The public answers that depend on nothing but the data. */
type PublicAnswer = 'latest' | 'totals' | 'summary';

/** How a SeriesService is wired beyond its table (SeriesModule sets them from the configuration). */
export interface SeriesServiceOptions {
  /** Public aggregates and small lists (<= CACHED_LIST_LIMIT records): see ReadCache. */
  cache?: ReadCache;
  /**
   * Page queries of the lists that are not cached (large lists, streamed dumps): however many
   * clients pull dumps at once, they never take the whole connection pool, so that other
   * requests and the health probe still get a connection. Extra pages wait their turn.
   */
  listPages?: ConcurrencyLimit;
  /** The population table's rows (per-million figures); none when absent. */
  population?: () => Promise<PopulationRow[]>;
}

/**
 * The rules of one disease's series (windows, totals, stats; its lists, history and writes by
 * delegation); COVID and MPOX share it. Every write goes through the series' `RecordWriter`,
 * which drops this service's cache. One provider per disease (`SeriesModule.forSeries`, injected
 * with `@InjectSeries`).
 */
@Injectable()
export class SeriesService {
  private readonly cache: ReadCache;
  private readonly listPages: ConcurrencyLimit;
  private readonly lists: RecordLists;
  private readonly revisions: RevisionReads;
  /** The lists of countries and a country's stats. */
  readonly places: CountryAnswers;
  /** The derived series: `/series`, the public map, the weekly answers' figures. */
  readonly figures: SeriesFigures;
  /** The corrections: `/corrections`, a country's latest, the series' flags. */
  readonly corrections: SeriesCorrections;
  /** Every version of every figure: `/vintages`, `/series?lag=N`. */
  readonly vintages: SeriesVintages;

  constructor(
    readonly definition: SeriesDefinition,
    private readonly repository: RecordReadsRepository,
    private readonly writer: RecordWriter,
    options: SeriesServiceOptions = {},
  ) {
    this.cache = options.cache ?? new ReadCache(0);
    this.listPages = options.listPages ?? new ConcurrencyLimit(Infinity);
    this.revisions = new RevisionReads(repository.revisions, this.listPages);
    this.lists = new RecordLists(repository, this.revisions, this.cache, this.listPages);
    this.places = new CountryAnswers(repository, this.cache);
    this.corrections = new SeriesCorrections(
      repository.corrections,
      this.cache,
      this.listPages,
      (key) => repository.figures.placeName(key),
    );
    this.vintages = new SeriesVintages(repository.vintages, this.listPages);
    this.figures = new SeriesFigures(
      repository.figures,
      options.population ?? (() => Promise.resolve([])),
      this.cache,
      this.listPages,
      this.corrections,
      this.vintages,
    );
  }

  /** No record at all (a new installation). */
  isEmpty(): Promise<boolean> {
    return this.repository.isEmpty();
  }

  /** Read through `publicJson`, which caches the answer (as JSON text). */
  latest(): Promise<SeriesRecord[]> {
    return this.repository.latest(LATEST_COUNT);
  }

  /**
   * The records within the 30 days that end at that country's most recent record. Read through
   * `countryWindowList`, which caches the answer (as text).
   */
  async countryWindow(country: string, asOf?: number): Promise<SeriesRecord[]> {
    const key = countryLookupKey(country);
    const lastDate = await this.repository.lastDate(key, asOf);
    if (!lastDate) throw ApiError.notFound(MESSAGES.countryNotFound);
    const from = addDays(lastDate, 1 - COUNTRY_WINDOW_DAYS);
    return this.repository.between(key, from, lastDate, asOf);
  }

  /**
   * Sums over countries of each country's most recent record, kept in the read cache (for
   * `/stats/summary`).
   */
  totals(): Promise<Totals> {
    return this.cache.get('totals', () => this.freshTotals());
  }

  private async freshTotals(): Promise<Totals> {
    return sumTotals(await this.repository.latestPerCountry());
  }

  /** Read through `publicJson`, which caches the answer (as JSON text). */
  async summary(): Promise<SeriesSummary> {
    const latest = await this.repository.latestPerCountry();
    const top = [...latest]
      .sort((a, b) => b.total_cases - a.total_cases || a.country.localeCompare(b.country))
      .slice(0, TOP_COUNTRIES);
    return {
      ...sumTotals(latest),
      countries: latest.length,
      last_date: latest.reduce<string | null>(
        (max, r) => (max === null || r.date > max ? r.date : max),
        null,
      ),
      top_countries: top.map(({ country, date, total_cases, total_deaths }) => ({
        country,
        date,
        total_cases,
        total_deaths,
      })),
    };
  }

  /**
   * A public answer as JSON text, cached as text: serialising it again for each request was the
   * largest cost of a cached answer (bench profile). With whether the cache still holds it: the
   * API's response cache serves the answer that long (`@CachedResponse()`).
   */
  publicJson(answer: PublicAnswer): Promise<CachedValue<string>> {
    return this.cache.getCached(`json:${answer}`, async () =>
      JSON.stringify(await this.readPublic(answer)),
    );
  }

  /**
   * Each public answer is read from the database, never built from another cached value
   * (`totals`): it would then outlive CACHE_TTL_MS by that value's age.
   */
  private readPublic(answer: PublicAnswer): Promise<unknown> {
    switch (answer) {
      case 'latest':
        return this.latest();
      case 'totals':
        return this.freshTotals();
      case 'summary':
        return this.summary();
    }
  }

  /** The public list of the 10 most recent records, in `format`; cached as text. */
  latestList(format: ListFormat): Promise<CachedValue<string>> {
    if (format === 'json') return this.publicJson('latest');
    return this.cache.getCached(`${format}:latest`, async () =>
      listText(format, RECORD_COLUMNS, await this.latest()),
    );
  }

  /**
   * A country's window (`countryWindow`) in `format`; cached as text. As of an instant (`asOf`, an
   * `as_of` value) under its own key: never served as the live answer, nor the live one as it.
   */
  async countryWindowList(
    country: string,
    format: ListFormat,
    asOf?: string,
  ): Promise<CachedValue<string>> {
    const instant = await this.revisions.instant(asOf);
    const key = `${format}:country:${countryLookupKey(country)}`;
    return this.cache.getCached(instant === undefined ? key : `${key}@${instant}`, async () =>
      listText(format, RECORD_COLUMNS, await this.countryWindow(country, instant)),
    );
  }

  /**
   * A country's weekly series (see `weeklySeries`), looked up as the public country route looks
   * it up; cached as JSON text.
   */
  weeklyJson(country: string): Promise<CachedValue<string>> {
    const key = countryLookupKey(country);
    return this.cache.getCached(`json:weekly:${key}`, async () => {
      const { country: name, days } = await this.repository.daily(key);
      if (name === null) throw ApiError.notFound(MESSAGES.countryNotFound);
      const table = await this.figures.population();
      const iso3 = resolveCountry(name)?.iso3 ?? null;
      const populationOf = this.figures.populationOf(table, { iso3 });
      const corrected = await this.corrections.correctedDates(key);
      return JSON.stringify(weeklySeries(name, days, populationOf, corrected));
    });
  }

  /** The world's weekly series: each day's sums over the countries with a record that day. */
  worldWeeklyJson(): Promise<CachedValue<string>> {
    return this.cache.getCached('json:weekly-world', async () => {
      const days = await this.repository.dailyWorld();
      const table = await this.figures.population();
      const populationOf = this.figures.populationOf(table, { region: regionNamed(WORLD) });
      const corrected = await this.corrections.regionCorrectedDates(WORLD);
      return JSON.stringify(weeklySeries(null, days, populationOf, corrected));
    });
  }

  /**
   * `/series` (see `SeriesFigures.series`): as of an instant when `as_of` is given, under the
   * same rules as the lists (a 400 naming it before the kept history, or in the future).
   */
  async series(query: FigureQuery & { as_of?: string }, format: ListFormat): Promise<FigureBody> {
    const asOf = await this.revisions.instant(query.as_of);
    const { as_of: _asOf, ...rest } = query;
    return this.figures.series(rest, format, asOf);
  }

  /** The public map (see `SeriesFigures.mapJson`). */
  mapJson(query: MapQuery): Promise<CachedValue<string>> {
    return this.figures.mapJson(query);
  }

  /**
   * The record lists (`RecordLists.list`). The first page is read before anything is sent, so
   * that a database error still gets a proper status; larger results are streamed.
   */
  list(query: ListQuery, format: ListFormat = 'json'): Promise<ListBody> {
    return this.lists.list(query, format);
  }

  /** A page of the change feed in `format` (`RevisionReads.changes`). */
  changes(query: ChangeFeedQuery, format: ListFormat = 'json'): Promise<FeedBody> {
    return this.revisions.changes(query, format);
  }

  /**
   * One record, as it stands or as of an instant (`asOf`, an `as_of` value, read from the history
   * as the list reads it); 404 when there is none (then).
   */
  async record(id: number, asOf?: string): Promise<SeriesRecord> {
    const instant = await this.revisions.instant(asOf);
    const record = await this.repository.byId(id, instant);
    if (record === undefined) throw ApiError.notFound(MESSAGES.recordNotFound);
    return record;
  }

  /** A record's revisions, oldest first; 404 for an id that never existed. */
  history(id: number): Promise<RecordRevision[]> {
    return this.revisions.history(id);
  }

  /** A new record, through the write path; 409 when its country and date are taken. */
  async create(body: RecordValues, origin: ChangeOrigin): Promise<number> {
    return refusedAs409(() => this.writer.create(toValues(body), origin));
  }

  /** Replaces a record's fields, through the write path; 404 for an unknown id, 409 as `create`. */
  async update(id: number, body: RecordValues, origin: ChangeOrigin): Promise<void> {
    const found = await refusedAs409(() => this.writer.update(id, toValues(body), origin));
    if (!found) throw ApiError.notFound(MESSAGES.recordNotFound);
  }

  /**
   * Insert-or-update by country and date, all in one transaction (all or nothing). `updated`
   * counts every record that existed, rewritten or equal to the one stored (the bulk answer's
   * meaning since the start; the importer's summary tells the two apart).
   */
  async upsertMany(
    bodies: RecordValues[],
    origin: ChangeOrigin,
  ): Promise<{ inserted: number; updated: number }> {
    const counts = await this.writer.upsertMany(bodies.map(toValues), origin);
    return { inserted: counts.inserted, updated: counts.updated + counts.unchanged };
  }

  /** Deletes a record, through the write path; 404 for an unknown id. */
  async remove(id: number, origin: ChangeOrigin): Promise<void> {
    if (!(await this.writer.remove(id, origin))) throw ApiError.notFound(MESSAGES.recordNotFound);
  }
}

function sumTotals(records: SeriesRecord[]): Totals {
  return records.reduce<Totals>(
    (sum, r) => ({
      total_cases: sum.total_cases + r.total_cases,
      total_deaths: sum.total_deaths + r.total_deaths,
    }),
    { total_cases: 0, total_deaths: 0 },
  );
}

/** Only the stored fields: a body's legacy fields (`total_recovered`...) are dropped here. */
function toValues(body: RecordValues): RecordValues {
  return {
    date: body.date,
    country: body.country.trim(),
    total_cases: body.total_cases,
    new_cases: body.new_cases,
    total_deaths: body.total_deaths,
    new_deaths: body.new_deaths,
  };
}

/** A duplicate country and date, refused by the unique index: 409. */
async function refusedAs409<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw ApiError.conflict(MESSAGES.duplicateRecord);
    throw error;
  }
}
