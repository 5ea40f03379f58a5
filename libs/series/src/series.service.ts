import { Injectable, Logger } from '@nestjs/common';
import { ApiError, MESSAGES, addDays, problemMessage } from '@app/common';
import { countryLookupKey, resolveCountry } from '@app/countries';
import { DatabaseDeadlineError, isUniqueViolation } from '@app/database';
import { ConcurrencyLimit } from './concurrency-limit';
import { STREAM_TURNS } from './event-loop-turns';
import { CachedValue, ReadCache } from './read-cache';
import { SeriesRepository } from './series.repository';
import { weeklyHistory } from './weekly-history';
import {
  ChangeOrigin,
  CountryListItem,
  CountryLatest,
  CountryStats,
  ListFilter,
  ListQuery,
  RecordRevision,
  RecordValues,
  SeriesDefinition,
  SeriesRecord,
  SeriesSummary,
  Totals,
} from './series.types';

export const LATEST_COUNT = 10;
export const COUNTRY_WINDOW_DAYS = 30;
export const STATS_WINDOW_DAYS = 7;
export const TOP_COUNTRIES = 5;
export { MAX_BULK_RECORDS } from '@app/common';
/** Records in a list whose query sets no `limit`. */
export const DEFAULT_LIST_LIMIT = 100;
/** Rows fetched per query while a list is streamed. */
export const LIST_PAGE_SIZE = 500;
/** Lists of at most this many records (the default limit) are cached as JSON text. */
export const CACHED_LIST_LIMIT = 100;

/** The public answers that depend on nothing but the data. */
type PublicAnswer = 'latest' | 'totals' | 'summary';

/**
 * A list answer: the JSON text read through the cache (small lists), the whole JSON text when it
 * fits in one page, otherwise chunks to stream.
 */
export type ListBody =
  | { kind: 'cached'; answer: CachedValue<string> }
  | { kind: 'text'; json: string }
  | { kind: 'stream'; chunks: AsyncIterable<string> };

/** How a SeriesService is wired beyond its table (SeriesModule sets them from the configuration). */
export interface SeriesServiceOptions {
  /** Public aggregates and small lists (<= CACHED_LIST_LIMIT records): see ReadCache. */
  cache?: ReadCache;
  /** Called after every write, once the cache is dropped (tells the other instances). */
  written?: () => void;
  /**
   * Page queries of the lists that are not cached (large lists, streamed dumps): however many
   * clients pull dumps at once, they never take the whole connection pool, so that other
   * requests and the health probe still get a connection. Extra pages wait their turn.
   */
  listPages?: ConcurrencyLimit;
}

/**
 * The rules of one disease's series (windows, totals, stats, writes); COVID and MPOX share it.
 * One provider per disease (`SeriesModule.forSeries`, injected with `@InjectSeries`).
 */
@Injectable()
export class SeriesService {
  private readonly cache: ReadCache;
  private readonly written: () => void;
  private readonly listPages: ConcurrencyLimit;
  private readonly logger: Logger;

  constructor(
    readonly definition: SeriesDefinition,
    private readonly repository: SeriesRepository,
    options: SeriesServiceOptions = {},
  ) {
    this.cache = options.cache ?? new ReadCache(0);
    this.written = options.written ?? (() => undefined);
    this.listPages = options.listPages ?? new ConcurrencyLimit(Infinity);
    this.logger = new Logger(`Records:${definition.key}`);
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
   * `countryWindowJson`, which caches the answer (as JSON text).
   */
  async countryWindow(country: string): Promise<SeriesRecord[]> {
    const key = countryLookupKey(country);
    const lastDate = await this.repository.lastDate(key);
    if (!lastDate) throw ApiError.notFound(MESSAGES.countryNotFound);
    return this.repository.between(key, addDays(lastDate, 1 - COUNTRY_WINDOW_DAYS), lastDate);
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

  countryWindowJson(country: string): Promise<CachedValue<string>> {
    return this.cache.getCached(`json:country:${countryLookupKey(country)}`, async () =>
      JSON.stringify(await this.countryWindow(country)),
    );
  }

  /**
   * A country's weekly history (see `weeklyHistory`), looked up as the public country route looks
   * it up; cached as JSON text.
   */
  weeklyJson(country: string): Promise<CachedValue<string>> {
    const key = countryLookupKey(country);
    return this.cache.getCached(`json:weekly:${key}`, async () => {
      const { country: name, days } = await this.repository.daily(key);
      if (name === null) throw ApiError.notFound(MESSAGES.countryNotFound);
      return JSON.stringify(weeklyHistory(name, days));
    });
  }

  /** The world's weekly history: each day's sums over the countries with a record that day. */
  worldWeeklyJson(): Promise<CachedValue<string>> {
    return this.cache.getCached('json:weekly-world', async () =>
      JSON.stringify(weeklyHistory(null, await this.repository.dailyWorld())),
    );
  }

  /**
   * Each country's most recent totals, by name: the public pages' country picker and table of
   * countries.
   */
  countriesJson(): Promise<CachedValue<string>> {
    return this.cache.getCached('json:countries', async () => {
      const latest = await this.repository.latestPerCountry();
      const list: CountryLatest[] = latest
        .map(({ country, date, total_cases, total_deaths }) => ({
          country,
          date,
          total_cases,
          total_deaths,
        }))
        .sort((a, b) => a.country.localeCompare(b.country, 'en'));
      return JSON.stringify(list);
    });
  }

  /** Each place with its ISO codes (null for a place that is not a country, e.g. a ship). */
  async countries(): Promise<CountryListItem[]> {
    return (await this.repository.countries()).map(({ country, ...rest }) => {
      const identity = resolveCountry(country);
      return { country, iso2: identity?.iso2 ?? null, iso3: identity?.iso3 ?? null, ...rest };
    });
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

  /**
   * The list as JSON. The first page is read before anything is sent, so that a database error
   * still gets a proper status; larger results are streamed page by page (memory stays flat).
   */
  async list(query: ListQuery): Promise<ListBody> {
    const filter: ListFilter = {
      countryKey: query.country === undefined ? undefined : countryLookupKey(query.country),
      from: query.from,
      to: query.to,
      limit: query.limit ?? DEFAULT_LIST_LIMIT,
      offset: query.offset ?? 0,
    };
    if (filter.from && filter.to && filter.from > filter.to) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'from', problem: 'later-than', other: 'to' }),
      ]);
    }
    if (filter.limit <= CACHED_LIST_LIMIT) {
      const key = `list:${JSON.stringify(filter)}`;
      const answer = await this.cache.getCached(key, async () =>
        JSON.stringify(await this.repository.page(filter, filter.limit)),
      );
      return { kind: 'cached', answer };
    }
    const size = Math.min(filter.limit, LIST_PAGE_SIZE);
    const first = await this.listPages.run(() => this.repository.page(filter, size));
    if (first.length < size || filter.limit <= size) {
      return { kind: 'text', json: JSON.stringify(first) };
    }
    return { kind: 'stream', chunks: this.pages(filter, first) };
  }

  private async *pages(filter: ListFilter, first: SeriesRecord[]): AsyncGenerator<string> {
    const pages = this.repository.pages(filter, LIST_PAGE_SIZE, {
      first,
      run: (query) => this.listPages.run(query),
    });
    let separator = '[';
    for await (const page of pages) {
      yield `${separator}${JSON.stringify(page).slice(1, -1)}`;
      separator = ',';
      // Streams move on through process.nextTick, which runs before any I/O: without a turn of
      // the event loop here, a whole dump would run before other requests are read. One page of
      // one stream per turn, so that several dumps never run their pages back to back.
      await STREAM_TURNS.next();
    }
    yield ']';
  }

  /** A record's revisions, oldest first; 404 for an id that never existed. */
  async history(id: number): Promise<RecordRevision[]> {
    const revisions = await this.repository.revisions.ofRecord(id);
    if (revisions.length === 0) throw ApiError.notFound(MESSAGES.recordNotFound);
    return revisions.map((revision, i) => ({
      revision: i + 1,
      at: new Date(revision.at).toISOString(),
      actor: revision.actor,
      change: revision.kind,
      record: revision.values === null ? null : { id, ...revision.values },
    }));
  }

  create(body: RecordValues, origin: ChangeOrigin): Promise<number> {
    return this.write(origin, 'created', async () => {
      try {
        const id = await this.repository.insert(toValues(body), origin);
        return { result: id, ids: [id] };
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.conflict(MESSAGES.duplicateRecord);
        throw error;
      }
    });
  }

  update(id: number, body: RecordValues, origin: ChangeOrigin): Promise<void> {
    return this.write(origin, 'updated', async () => {
      let updated: boolean;
      try {
        updated = await this.repository.update(id, toValues(body), origin);
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.conflict(MESSAGES.duplicateRecord);
        throw error;
      }
      if (!updated) throw ApiError.notFound(MESSAGES.recordNotFound);
      return { result: undefined, ids: [id] };
    });
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
    const counts = await this.write(origin, 'upserted', async () => {
      const written = await this.repository.upsertMany(bodies.map(toValues), origin);
      return { result: written, ids: [] };
    });
    return { inserted: counts.inserted, updated: counts.updated + counts.unchanged };
  }

  remove(id: number, origin: ChangeOrigin): Promise<void> {
    return this.write(origin, 'deleted', async () => {
      if (!(await this.repository.delete(id, origin))) {
        throw ApiError.notFound(MESSAGES.recordNotFound);
      }
      return { result: undefined, ids: [id] };
    });
  }

  /**
   * Runs a write, then drops the cached reads and tells the other instances. Also when it failed
   * on the database (it may have half-run), but not when it was refused (404, 409: nothing
   * changed). A write that ran out of time may still commit: then once more when it has ended.
   * Each write is logged (debug) with who made it.
   */
  private async write<T>(
    origin: ChangeOrigin,
    what: string,
    run: () => Promise<{ result: T; ids: number[] }>,
  ): Promise<T> {
    try {
      const { result, ids } = await run();
      this.changed();
      const records = ids.length > 0 ? ` ${ids.join(', ')}` : 's';
      const request = origin.requestId === undefined ? '' : ` (request ${origin.requestId})`;
      this.logger.debug(`Record${records} ${what} by ${origin.actor}${request}`);
      return result;
    } catch (error) {
      if (!(error instanceof ApiError)) this.changed();
      if (error instanceof DatabaseDeadlineError) void error.settled.then(() => this.changed());
      throw error;
    }
  }

  private changed(): void {
    this.cache.invalidate();
    this.written();
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
