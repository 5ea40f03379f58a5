import { ApiError, MESSAGES, addDays, ConcurrencyLimit } from '@app/common';
import { countryLookupKey } from '@app/countries';
import {
  isUniqueViolation,
  ChangeOrigin,
  ListQuery,
  RECORD_COLUMNS,
  RecordValues,
  DiseaseDefinition,
  StoredRecord,
  DiseaseSummary,
  Totals,
  RecordReadsRepository,
} from '@app/database';
import { RevisionsService } from '../history/revisions.service';
import { ListFormat, listText } from '../list-format';
import { CachedValue, ReadCache } from '../read-cache';
import { RecordWriter } from '../writes/record-writer.service';
import { ListBody, RecordLists } from './record-lists.service';

export const LATEST_COUNT = 10;
export const COUNTRY_WINDOW_DAYS = 30;
export const TOP_COUNTRIES = 5;
export { MAX_BULK_RECORDS } from '@app/common';

/** The public answers that depend on nothing but the data. */
type PublicAnswer = 'latest' | 'totals' | 'summary';

/**
 * The records of one disease: its lists, one record, the public answers (latest, a country's
 * window, totals, summary) and the writes, through the disease's `RecordWriter`, which drops
 * this service's cache. One instance per disease (`DiseaseModule.forDisease`), injected with
 * `@InjectDisease(RecordsService, key)`.
 */
export class RecordsService {
  private readonly lists: RecordLists;

  /**
   * `cache`: public aggregates and small lists (see `ReadCache`); `listPages`: the turns of the
   * uncached lists' page queries, so that dumps never take the whole connection pool.
   */
  constructor(
    readonly definition: DiseaseDefinition,
    private readonly repository: RecordReadsRepository,
    private readonly writer: RecordWriter,
    private readonly revisions: RevisionsService,
    private readonly cache: ReadCache = new ReadCache(0),
    listPages: ConcurrencyLimit = new ConcurrencyLimit(Infinity),
  ) {
    this.lists = new RecordLists(repository, revisions, cache, listPages);
  }

  /** No record at all (a new installation). */
  isEmpty(): Promise<boolean> {
    return this.repository.isEmpty();
  }

  /** Read through `publicJson`, which caches the answer (as JSON text). */
  latest(): Promise<StoredRecord[]> {
    return this.repository.latest(LATEST_COUNT);
  }

  /**
   * The records within the 30 days that end at that country's most recent record. Read through
   * `countryWindowList`, which caches the answer (as text).
   */
  async countryWindow(country: string, asOf?: number): Promise<StoredRecord[]> {
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
  async summary(): Promise<DiseaseSummary> {
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
   * The record lists (`RecordLists.list`). The first page is read before anything is sent, so
   * that a database error still gets a proper status; larger results are streamed.
   */
  list(query: ListQuery, format: ListFormat = 'json'): Promise<ListBody> {
    return this.lists.list(query, format);
  }

  /**
   * One record, as it stands or as of an instant (`asOf`, an `as_of` value, read from the history
   * as the list reads it); 404 when there is none (then).
   */
  async record(id: number, asOf?: string): Promise<StoredRecord> {
    const instant = await this.revisions.instant(asOf);
    const record = await this.repository.byId(id, instant);
    if (record === undefined) throw ApiError.notFound(MESSAGES.recordNotFound);
    return record;
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

function sumTotals(records: StoredRecord[]): Totals {
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
