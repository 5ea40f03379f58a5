import { ApiError, MESSAGES, problemMessage, ConcurrencyLimit } from '@app/common';
import { Region, countryLookupKey, regionNamed, resolveCountry } from '@app/countries';
import { DerivedFiguresRepository, PopulationRow } from '@app/database';
import { ListFormat, isWholeDownload, listChunks, listText } from '../list-format';
import { CachedValue, ReadCache } from '../read-cache';
import { STREAM_TURNS } from '../stream-turns';
import { CorrectionsService, correctedOfAny } from '../history/corrections.service';
import { VintagesService } from '../history/vintages.service';
import { RevisionsService } from '../history/revisions.service';
import { FigureDay, PopulationOf } from './daily-figures';
import { FigureCursor, decodeFigureCursor, encodeFigureCursor } from './figure-cursor';
import { mapCountries } from './figure-map';
import { DEFAULT_MAP_METRIC, METRICS, Metric, isMetric, parseMetrics } from './figure-metrics';
import {
  FigurePeriod,
  FigureRequest,
  FlaggedRow,
  LOOKBACK_DAYS,
  OutputRow,
  columnsOf,
  figuresOf,
  outputRange,
  readRange,
  rowOutput,
  rowsInRange,
} from './figure-request';
import { weekEnd } from './iso-week';
import { PopulationTable } from './population-table';

export { FIGURE_PERIODS, FigurePeriod } from './figure-request';

/** A `/series` request as the client gave it (validated in form by the API's DTO). */
export interface FigureQuery {
  country?: string;
  from?: string;
  to?: string;
  metrics?: string;
  period?: FigurePeriod;
  after?: string;
  limit?: number;
  /** Each figure as it stood this many days after its date (docs/vintages.md). */
  lag?: number;
}

/** A `/public/map` request. */
export interface MapQuery {
  metric?: string;
  date?: string;
  week?: string;
}

/** Rows of a series without `country` when no `limit` is given (as `/data`). */
export const DEFAULT_SERIES_LIMIT = 100;
/** Rows of a page answered as one text (cached when at most CACHED_SERIES_LIMIT); more are streamed. */
const TEXT_SERIES_LIMIT = 500;
const CACHED_SERIES_LIMIT = 100;
const ROWS_PER_TURN = 250; // a streamed place's rows per turn: a whole place held the loop

/** A series answer: cached text, text, or chunks to stream; `next`, the next page's cursor. */
export type FigureBody = { next?: string } & (
  | { kind: 'cached'; answer: CachedValue<string> }
  | { kind: 'text'; text: string }
  | { kind: 'stream'; chunks: AsyncIterable<string> }
);

/** The place a series is of: a country (or another stored place), or a region. */
type Place =
  | { kind: 'place'; key: string; iso3: string | null; name: string }
  | { kind: 'region'; key: string; region: Region; name: string };

const badQuery = (...problems: Parameters<typeof problemMessage>[0][]) =>
  ApiError.badRequest(MESSAGES.invalidQuery, problems.map(problemMessage));

/**
 * The derived figures of one disease (`/series`, the public map, the weekly answers' population):
 * read through the disease's read cache, as of an instant when asked. One instance per disease.
 */
export class DerivedFiguresService {
  constructor(
    private readonly repository: DerivedFiguresRepository,
    private readonly populationRows: () => Promise<PopulationRow[]>,
    private readonly cache: ReadCache,
    private readonly listPages: ConcurrencyLimit,
    private readonly revisions: RevisionsService,
    private readonly corrections?: CorrectionsService,
    private readonly vintages?: VintagesService,
  ) {}

  /** A region's corrected dates: kept with its days, or as of the request's instant. */
  private async regionCorrected(
    region: { name: string; keys: string[] },
    request: FigureRequest,
  ): Promise<ReadonlySet<string>> {
    if (!this.corrections) return new Set();
    if (request.asOf === undefined) return this.corrections.regionCorrectedDates(region.name);
    return correctedOfAny(await this.corrections.correctedPlaces(request.asOf), region.keys);
  }

  /** A place's corrected dates as of the request's instant. */
  private correctedDates(key: string, request: FigureRequest): Promise<ReadonlySet<string>> {
    if (!this.corrections) return Promise.resolve(new Set());
    return this.corrections.correctedDates(key, request.asOf);
  }

  /** The population table, kept in the read cache (a population import drops it too). */
  population(): Promise<PopulationTable> {
    return this.cache.get(
      'population',
      async () => new PopulationTable(await this.populationRows()),
    );
  }

  /** A place's population for its figures of `year` (a region: the sum over its members). */
  populationOf(
    table: PopulationTable,
    place: { iso3?: string | null; region?: Region },
  ): PopulationOf {
    if (place.region) {
      const members = place.region.members.map((member) => member.iso3);
      return (year) => table.sum(members, year);
    }
    return (year) => table.of(place.iso3, year);
  }

  /** `/series` in `format`, as of `as_of` when given (the lists' rules: `RevisionsService`). */
  async series(query: FigureQuery & { as_of?: string }, format: ListFormat): Promise<FigureBody> {
    const { as_of: asOf, ...rest } = query;
    return this.seriesAt(rest, format, await this.revisions.instant(asOf));
  }

  private async seriesAt(
    query: FigureQuery,
    format: ListFormat,
    asOf?: number,
  ): Promise<FigureBody> {
    const parsed = parseMetrics(query.metrics);
    if ('unknown' in parsed) {
      throw badQuery({ field: 'metrics', problem: 'unknown-metric', names: parsed.unknown });
    }
    if (query.from && query.to && query.from > query.to) {
      throw badQuery({ field: 'from', problem: 'later-than', other: 'to' });
    }
    const after = query.after === undefined ? undefined : decodeFigureCursor(query.after);
    if (query.after !== undefined && after === undefined) {
      throw badQuery({ field: 'after', problem: 'not-a-cursor' });
    }
    const period = query.period ?? 'day';
    const request = { ...query, period, metrics: parsed.metrics, after, asOf };
    if (query.lag !== undefined) {
      // A lag is read from one place's revisions: a region's sums per lag, or every place's
      // series, would read the history of many places for one answer (decision 0050).
      if (asOf !== undefined) throw badQuery({ field: 'lag', problem: 'not-with', other: 'as_of' });
      if (query.country === undefined) throw badQuery({ field: 'country', problem: 'required' });
    }
    if (query.country !== undefined) {
      const place = await this.place(query.country, asOf);
      if (query.lag !== undefined && place.kind === 'region') {
        throw badQuery({ field: 'lag', problem: 'not-with', other: `country=${place.name}` });
      }
      const key = `series:${format}:${JSON.stringify({ ...request, country: place.key })}`;
      const page = await this.cache.getCached(key, () => this.placePage(place, request, format));
      return { kind: 'cached', answer: page.map((p) => p.text), next: page.value.next };
    }
    return this.allPlaces(request, format);
  }

  /** The country or region `name` stands for; a 400 naming `country` when it is neither. */
  private async place(name: string, asOf?: number): Promise<Place> {
    const region = regionNamed(name);
    if (region) return { kind: 'region', key: `region:${region.name}`, region, name: region.name };
    const identity = resolveCountry(name);
    const key = countryLookupKey(name);
    if (identity) return { kind: 'place', key, iso3: identity.iso3, name: identity.name };
    // A stored place that is not a country (a ship...): known by its records.
    const stored = await this.repository.placeName(key, asOf);
    if (stored === null) throw badQuery({ field: 'country', problem: 'not-a-place' });
    return { kind: 'place', key, iso3: null, name: stored };
  }

  /** What a place's page is computed from: its days read around the range, the population. */
  private async placeInputs(
    place: Place,
    request: FigureRequest,
  ): Promise<{
    days: FigureDay[];
    corrected: ReadonlySet<string>;
    populationOf: PopulationOf;
  }> {
    const range = readRange(request);
    const table = await this.population();
    if (place.kind === 'region') {
      const keys = place.region.members.map((member) => countryLookupKey(member.iso2));
      const region = { name: place.region.name, keys };
      const days = await this.listPages.run(() => this.repository.regionDays(region, range));
      // A region's day is corrected when a member's is; negative when its sum is (decision 0034).
      const corrected = await this.regionCorrected(region, request);
      const populationOf = this.populationOf(table, { region: place.region });
      return { days, corrected, populationOf };
    }
    if (request.lag !== undefined && this.vintages) {
      const atLag = await this.vintages.placeDaysAtLag(place.key, range, request.lag);
      return { ...atLag, populationOf: this.populationOf(table, { iso3: place.iso3 }) };
    }
    const { days } = await this.listPages.run(() => this.repository.placeDays(place.key, range));
    const corrected = await this.correctedDates(place.key, request);
    return { days, corrected, populationOf: this.populationOf(table, { iso3: place.iso3 }) };
  }

  /** A place's page (kept in the read cache by the caller). */
  private async placePage(place: Place, request: FigureRequest, format: ListFormat) {
    const { populationOf, ...inputs } = await this.placeInputs(place, request);
    let rows = rowsInRange(
      figuresOf(inputs.days, populationOf, request.period, inputs.corrected),
      request,
    );
    if (request.after) rows = rows.filter((row) => row.date > request.after!.date);
    let next: string | undefined;
    if (request.limit !== undefined && rows.length > request.limit) {
      rows = rows.slice(0, request.limit);
      next = encodeFigureCursor({ key: place.key, date: rows[rows.length - 1].date });
    }
    const isoCode = place.kind === 'region' ? place.region.owidCode : place.iso3;
    const items = rows.map((row) =>
      rowOutput({ name: place.name, isoCode }, row, request.metrics, format),
    );
    return {
      text: listText(format, columnsOf(request.metrics, place.kind === 'region'), items),
      next,
    };
  }

  /**
   * Every place's series, by place key then date, `limit` rows at most (DEFAULT_SERIES_LIMIT
   * unless given), past the cursor. Where the page ends is worked out first (rows per place, then
   * the last place's rows), so that its cursor can be sent before a streamed body.
   */
  private async allPlaces(request: FigureRequest, format: ListFormat): Promise<FigureBody> {
    if (isWholeDownload(request, format)) return this.wholeSeries(request, format);
    const limit = request.limit ?? DEFAULT_SERIES_LIMIT;
    const read = async () => {
      const end = await this.pageEnd(request, limit);
      const chunks = listChunks(
        format,
        columnsOf(request.metrics, false),
        this.placeChunks(request, end, format),
      );
      return { end, chunks };
    };
    if (limit <= TEXT_SERIES_LIMIT) {
      const text = async () => {
        const { end, chunks } = await read();
        let body = '';
        for await (const chunk of chunks) body += chunk;
        return { text: body, next: end?.more ? encodeFigureCursor(end.last) : undefined };
      };
      if (limit <= CACHED_SERIES_LIMIT) {
        const key = `series:${format}:${JSON.stringify({ ...request, limit })}`;
        const page = await this.cache.getCached(key, text);
        return { kind: 'cached', answer: page.map((p) => p.text), next: page.value.next };
      }
      const { text: body, next } = await text();
      return { kind: 'text', text: body, next };
    }
    const { end, chunks } = await read();
    return { kind: 'stream', chunks, next: end?.more ? encodeFigureCursor(end.last) : undefined };
  }

  /**
   * Every place's whole series (a download, decision 0049), streamed place after place: no
   * page end to work out, no `Link`. The places are listed before anything is sent, so that a
   * database error still gets a proper status.
   */
  private async wholeSeries(request: FigureRequest, format: ListFormat): Promise<FigureBody> {
    const places = await this.listPages.run(() =>
      this.repository.placeCounts(outputRange(request), request.after),
    );
    const rows = this.placeChunks(request, undefined, format, places);
    return { kind: 'stream', chunks: listChunks(format, columnsOf(request.metrics, false), rows) };
  }

  /**
   * The last row of the page (undefined: the rest of the series fits) and whether rows follow it:
   * rows per place are counted, then the rows of the place where the page ends are computed.
   */
  private async pageEnd(
    request: FigureRequest,
    limit: number,
  ): Promise<{ last: FigureCursor; more: boolean } | undefined> {
    const places = await this.listPages.run(() =>
      this.repository.placeCounts(outputRange(request), request.after),
    );
    let remaining = limit;
    let computed = false;
    // SQLite's reads resolve at once: a turn of the event loop between two places computed.
    const rowsOf = async (key: string) => {
      if (computed) await STREAM_TURNS.next();
      computed = true;
      return this.placeRowsByKey(key, request);
    };
    for (let i = 0; i < places.length; i++) {
      const { key, days } = places[i];
      // Days bound the rows from above (a week holds one or more days): compute when they may end here.
      if (days < remaining) {
        remaining -= request.period === 'day' ? days : (await rowsOf(key)).length;
        continue;
      }
      const rows = await rowsOf(key);
      if (rows.length < remaining) {
        remaining -= rows.length;
        continue;
      }
      const last = { key, date: rows[remaining - 1].date };
      return { last, more: rows.length > remaining || i < places.length - 1 };
    }
    return undefined;
  }

  private async placeRowsByKey(key: string, request: FigureRequest): Promise<FlaggedRow[]> {
    return (await this.keyRows(key, request)).rows;
  }

  /** A stored place's rows of the request (past the cursor when it is that place's), and its name. */
  private async keyRows(
    key: string,
    request: FigureRequest,
  ): Promise<{ country: string | null; iso3: string | null; rows: FlaggedRow[] }> {
    const table = await this.population();
    const { country, days } = await this.listPages.run(() =>
      this.repository.placeDays(key, readRange(request)),
    );
    const iso3 = country === null ? null : (resolveCountry(country)?.iso3 ?? null);
    const corrected = await this.correctedDates(key, request);
    let rows = rowsInRange(
      figuresOf(days, this.populationOf(table, { iso3 }), request.period, corrected),
      request,
    );
    if (request.after?.key === key) rows = rows.filter((row) => row.date > request.after!.date);
    return { country, iso3, rows };
  }

  /** The page's rows, one place at a time (one turn of the event loop each, see `listChunks`). */
  private async *placeChunks(
    request: FigureRequest,
    end: { last: FigureCursor } | undefined,
    format: ListFormat,
    listed?: { key: string }[],
  ): AsyncGenerator<OutputRow[]> {
    const places =
      listed ??
      (await this.listPages.run(() =>
        this.repository.placeCounts(outputRange(request), request.after),
      ));
    for (const { key } of places) {
      if (end && key > end.last.key) return;
      const { country, iso3, rows } = await this.keyRows(key, request);
      const place = { name: country ?? key, isoCode: iso3 };
      const kept =
        end && key === end.last.key ? rows.filter((row) => row.date <= end.last.date) : rows;
      for (let i = 0; i < kept.length; i += ROWS_PER_TURN) {
        yield kept
          .slice(i, i + ROWS_PER_TURN)
          .map((r) => rowOutput(place, r, request.metrics, format));
      }
      if (end && key === end.last.key) return;
    }
  }

  /**
   * The public map: every country's latest `metric` at or before a date, or the ISO week
   * containing `week`, each with its own date; without either, the latest date with a record.
   * Cached as JSON text.
   */
  async mapJson(query: MapQuery): Promise<CachedValue<string>> {
    const metric = query.metric ?? DEFAULT_MAP_METRIC;
    if (!isMetric(metric))
      throw badQuery({ field: 'metric', problem: 'not-one-of', values: METRICS });
    if (query.date !== undefined && query.week !== undefined) {
      throw badQuery({ field: 'week', problem: 'not-with', other: 'date' });
    }
    const period: FigurePeriod = query.week !== undefined ? 'week' : 'day';
    const given = query.week ?? query.date;
    return this.cache.getCached(`json:map:${metric}:${period}:${given ?? 'latest'}`, async () => {
      const date = given ?? (await this.repository.lastDate());
      if (date === null) return JSON.stringify({ metric, date: null, period, countries: [] });
      return JSON.stringify(await this.map(metric, period, date));
    });
  }

  private async map(metric: Metric, period: FigurePeriod, date: string) {
    const last = period === 'week' ? weekEnd(date) : date;
    // A week's figures need its seven days and the averages' days before them.
    const span = LOOKBACK_DAYS + (period === 'week' ? 7 : 1);
    const days = await this.listPages.run(() => this.repository.latestDays(last, span));
    const table = await this.population();
    const countries = mapCountries(days, metric, period, (identity) =>
      this.populationOf(table, identity),
    );
    return { metric, date: last, period, countries };
  }
}
