import { Injectable, Logger } from '@nestjs/common';
import { ApiError, MESSAGES, addDays, parseInstant, problemMessage } from '@app/common';
import { WORLD, countryLookupKey, regionNamed, resolveCountry } from '@app/countries';
import { PopulationRow } from '@app/database';
import { DatabaseDeadlineError, isUniqueViolation } from '@app/database';
import { ConcurrencyLimit } from './concurrency-limit';
import { checkAsOf, parseAsOf } from './history/as-of';
import { decodeChangeCursor } from './history/change-cursor';
import {
  ChangeFeedPage,
  ChangeFeedQuery,
  DEFAULT_FEED_LIMIT,
  changeFeedPage,
} from './history/change-feed';
import { ListCursor, decodeCursor, encodeCursor } from './list-cursor';
import { ListColumns, ListFormat, listChunks, listText } from './list-format';
import { CachedValue, ReadCache } from './read-cache';
import { SeriesRepository } from './series.repository';
import { weeklySeries } from './weekly/weekly-series';
import { FigureBody, FigureQuery, MapQuery, SeriesFigures } from './figures/series-figures';
import { SeriesCorrections, correctedOfAny } from './history/series-corrections';
import {
  ChangeOrigin,
  CountryListItem,
  CountryLatest,
  CountryStats,
  ListFilter,
  ListQuery,
  RECORD_COLUMNS,
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

/**
 * A list answer in the format asked for: the text read through the cache (small lists), the
 * whole text when it fits in one page, otherwise chunks to stream. `next`: the cursor of the
 * page that follows (`after`), when there is one.
 */
export type ListBody = { next?: string } & (
  | { kind: 'cached'; answer: CachedValue<string> }
  | { kind: 'text'; text: string }
  | { kind: 'stream'; chunks: AsyncIterable<string> }
);

/** A page and the cursor of the next one, as kept in the read cache. */
interface ListPage {
  text: string;
  next?: string;
}

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
  /** The population table's rows (per-million figures); none when absent. */
  population?: () => Promise<PopulationRow[]>;
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
  /** The derived series: `/series`, the public map, the weekly answers' figures. */
  readonly figures: SeriesFigures;
  /** The corrections: `/corrections`, a country's latest, the series' flags. */
  readonly corrections: SeriesCorrections;

  constructor(
    readonly definition: SeriesDefinition,
    private readonly repository: SeriesRepository,
    options: SeriesServiceOptions = {},
  ) {
    this.cache = options.cache ?? new ReadCache(0);
    this.written = options.written ?? (() => undefined);
    this.listPages = options.listPages ?? new ConcurrencyLimit(Infinity);
    this.logger = new Logger(`Records:${definition.key}`);
    this.corrections = new SeriesCorrections(
      repository.corrections,
      this.cache,
      this.listPages,
      (key) => repository.figures.placeName(key),
      repository.version,
    );
    this.figures = new SeriesFigures(
      repository.figures,
      options.population ?? (() => Promise.resolve([])),
      this.cache,
      this.listPages,
      this.corrections,
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
    const instant = asOf === undefined ? undefined : asOfInstant(asOf);
    if (instant !== undefined) await this.checkKept(instant);
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

  /** The world's weekly history: each day's sums over the countries with a record that day. */
  worldWeeklyJson(): Promise<CachedValue<string>> {
    return this.cache.getCached('json:weekly-world', async () => {
      const days = await this.repository.dailyWorld();
      const table = await this.figures.population();
      const populationOf = this.figures.populationOf(table, { region: regionNamed(WORLD) });
      const corrected = correctedOfAny(await this.corrections.correctedPlaces());
      return JSON.stringify(weeklySeries(null, days, populationOf, corrected));
    });
  }

  /**
   * `/series` (see `SeriesFigures.series`): as of an instant when `as_of` is given, under the
   * same rules as the lists (a 400 naming it before the kept history, or in the future).
   */
  async series(query: FigureQuery & { as_of?: string }, format: ListFormat): Promise<FigureBody> {
    const asOf = query.as_of === undefined ? undefined : asOfInstant(query.as_of);
    if (asOf !== undefined) await this.checkKept(asOf);
    const { as_of: _asOf, ...rest } = query;
    return this.figures.series(rest, format, asOf);
  }

  /** The public map (see `SeriesFigures.mapJson`). */
  mapJson(query: MapQuery): Promise<CachedValue<string>> {
    return this.figures.mapJson(query);
  }

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

  /**
   * The list in `format`. The first page is read before anything is sent, so that a database
   * error still gets a proper status; larger results are streamed page by page (memory stays
   * flat). A page that has a next one says where it starts (`next`, a cursor for `after`): small
   * pages read one record more than asked for; a streamed list first asks the index where its
   * `limit`-th record is and whether one follows, then ends exactly there, so that the cursor,
   * sent before the body, matches the body's last record even while others write.
   */
  async list(query: ListQuery, format: ListFormat = 'json'): Promise<ListBody> {
    const filter = this.listFilter(query);
    if (filter.asOf !== undefined) await this.checkKept(filter.asOf);
    // The key holds the whole filter, an instant (`asOf`) included.
    if (filter.limit <= CACHED_LIST_LIMIT) {
      const key = `list:${format}:${JSON.stringify(filter)}`;
      const page = await this.cache.getCached(key, () => this.readPage(filter, format));
      return { kind: 'cached', answer: page.map((p) => p.text), next: page.value.next };
    }
    if (filter.limit <= LIST_PAGE_SIZE) {
      const { text, next } = await this.listPages.run(() => this.readPage(filter, format));
      return { kind: 'text', text, next };
    }
    const first = await this.listPages.run(() => this.repository.page(filter, LIST_PAGE_SIZE));
    if (first.length < LIST_PAGE_SIZE) {
      return { kind: 'text', text: listText(format, RECORD_COLUMNS, first) };
    }
    const last = first[first.length - 1];
    const end = await this.listPages.run(() =>
      this.repository.boundary(filter, filter.limit - LIST_PAGE_SIZE, cursorOf(last)),
    );
    // Bounded by the record the cursor names rather than by a count: a record written meanwhile
    // may lengthen the body, but none that existed is left out before the cursor.
    const streamed: ListFilter = end.last
      ? { ...filter, limit: Number.MAX_SAFE_INTEGER, until: end.last }
      : { ...filter, limit: Number.MAX_SAFE_INTEGER };
    const pages = this.repository.pages(streamed, LIST_PAGE_SIZE, {
      first,
      run: (read) => this.listPages.run(read),
    });
    return {
      kind: 'stream',
      chunks: listChunks(format, RECORD_COLUMNS, pages),
      next: end.last && end.more ? encodeCursor(end.last) : undefined,
    };
  }

  private listFilter(query: ListQuery): ListFilter {
    const after = query.after === undefined ? undefined : decodeCursor(query.after);
    if (query.after !== undefined && after === undefined) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'after', problem: 'not-a-cursor' }),
      ]);
    }
    if (after && query.offset !== undefined) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'after', problem: 'not-with', other: 'offset' }),
      ]);
    }
    const filter: ListFilter = {
      countryKey: query.country === undefined ? undefined : countryLookupKey(query.country),
      from: query.from,
      to: query.to,
      limit: query.limit ?? DEFAULT_LIST_LIMIT,
      offset: query.offset ?? 0,
      ...(after && { after }),
      ...(query.as_of !== undefined && { asOf: asOfInstant(query.as_of) }),
    };
    if (filter.from && filter.to && filter.from > filter.to) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'from', problem: 'later-than', other: 'to' }),
      ]);
    }
    return filter;
  }

  /** One page of at most `filter.limit` records in one query, with one record more to look ahead. */
  private async readPage(filter: ListFilter, format: ListFormat): Promise<ListPage> {
    const records = await this.repository.page(filter, filter.limit + 1);
    if (records.length <= filter.limit) return { text: listText(format, RECORD_COLUMNS, records) };
    const page = records.slice(0, filter.limit);
    return {
      text: listText(format, RECORD_COLUMNS, page),
      next: encodeCursor(cursorOf(page[page.length - 1])),
    };
  }

  /**
   * A page of the change feed in `format` (see `RevisionRepository.feed`). `after` (a cursor)
   * continues a feed, `since` starts one at a time: not both (400), the cursor alone is exact.
   * The page's queries take their turn with the large lists' (`listPages`).
   */
  async changes(query: ChangeFeedQuery, format: ListFormat = 'json'): Promise<ChangeFeedPage> {
    const after = query.after === undefined ? undefined : decodeChangeCursor(query.after);
    if (query.after !== undefined && after === undefined) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'after', problem: 'not-a-cursor' }),
      ]);
    }
    if (after && query.since !== undefined) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'since', problem: 'not-with', other: 'after' }),
      ]);
    }
    const since = query.since === undefined ? undefined : parseInstant(query.since);
    if (since !== undefined && since > Date.now()) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({ field: 'since', problem: 'in-the-future' }),
      ]);
    }
    const limit = query.limit ?? DEFAULT_FEED_LIMIT;
    const revisions = await this.listPages.run(() =>
      this.repository.revisions.feed({ after, since }, limit),
    );
    return changeFeedPage(revisions, format);
  }

  /**
   * One record, as it stands or as of an instant (`asOf`, an `as_of` value, read from the history
   * as the list reads it); 404 when there is none (then).
   */
  async record(id: number, asOf?: string): Promise<SeriesRecord> {
    const instant = asOf === undefined ? undefined : asOfInstant(asOf);
    if (instant !== undefined) await this.checkKept(instant);
    const record = await this.repository.byId(id, instant);
    if (record === undefined) throw ApiError.notFound(MESSAGES.recordNotFound);
    return record;
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

  /** A 400 naming `as_of` for a moment before the history was pruned: no longer known. */
  private async checkKept(asOf: number): Promise<void> {
    const since = await this.repository.revisions.keptSince();
    if (since !== null && asOf < since) {
      throw ApiError.badRequest(MESSAGES.invalidQuery, [
        problemMessage({
          field: 'as_of',
          problem: 'before-kept-history',
          since: new Date(since).toISOString(),
        }),
      ]);
    }
  }

  private changed(): void {
    this.cache.invalidate();
    this.written();
  }
}

/**
 * An `as_of` as epoch ms; a 400 naming it when it is not an instant, or one still to come (checked
 * here, per request: the API's pipe remembers its outcomes, and the clock moves).
 */
function asOfInstant(value: string): number {
  const problem = checkAsOf(value, 'as_of');
  if (problem !== undefined) {
    throw ApiError.badRequest(MESSAGES.invalidQuery, [problemMessage(problem)]);
  }
  return Number(parseAsOf(value));
}

function cursorOf(record: SeriesRecord): ListCursor {
  return { date: record.date, id: record.id };
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
