import { ApiError, MESSAGES, parseInstant, problemMessage, ConcurrencyLimit } from '@app/common';
import { countryLookupKey } from '@app/countries';
import { FeedBody, ListFormat, feedPages, isWholeDownload } from '../list-format';
import { CachedValue, ReadCache } from '../read-cache';
import { decodeCorrectionCursor } from './correction-cursor';
import {
  DEFAULT_CORRECTIONS_LIMIT,
  DEFAULT_PUBLIC_CORRECTIONS,
  PlacedCorrection,
  correctionsChunks,
  correctionsOf,
  correctionsPage,
  publicCorrection,
} from './correction-list';
import { CorrectionFilter, CorrectionPosition, CorrectionsRepository } from '@app/database';

/** The query of `GET /<key>/corrections`, validated in form by the API's DTO. */
export interface CorrectionsQuery {
  country?: string;
  from?: string;
  to?: string;
  since?: string;
  until?: string;
  after?: string;
  limit?: number;
}

const badQuery = (...problems: Parameters<typeof problemMessage>[0][]) =>
  ApiError.badRequest(MESSAGES.invalidQuery, problems.map(problemMessage));

/** The corrected dates of every place, by place key. */
export type CorrectedPlaces = Map<string, Set<string>>;

/**
 * The corrections of one disease (docs/corrections.md): `/corrections`, a country's latest on its
 * public page, and the corrected dates that flag the derived series. COVID and MPOX share it.
 */
export class CorrectionsService {
  /**
   * @param placeName a stored place's name as its latest record has it (null: no record).
   */
  constructor(
    private readonly repository: CorrectionsRepository,
    private readonly cache: ReadCache,
    private readonly listPages: ConcurrencyLimit,
    private readonly placeName: (key: string) => Promise<string | null>,
  ) {}

  /** A page of `/corrections` in `format`; 400 naming the parameter for a query that cannot be. */
  async list(query: CorrectionsQuery, format: ListFormat): Promise<FeedBody> {
    const after = query.after === undefined ? undefined : decodeCorrectionCursor(query.after);
    if (query.after !== undefined && after === undefined) {
      throw badQuery({ field: 'after', problem: 'not-a-cursor' });
    }
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      throw badQuery({ field: 'from', problem: 'later-than', other: 'to' });
    }
    const since = query.since === undefined ? undefined : parseInstant(query.since);
    const until = query.until === undefined ? undefined : parseInstant(query.until);
    if (since !== undefined && since > Date.now()) {
      throw badQuery({ field: 'since', problem: 'in-the-future' });
    }
    if (since !== undefined && until !== undefined && since > until) {
      throw badQuery({ field: 'since', problem: 'later-than', other: 'until' });
    }
    const filter: CorrectionFilter = {
      countryKey: query.country === undefined ? undefined : countryLookupKey(query.country),
      from: query.from,
      to: query.to,
      since,
      until,
    };
    if (format !== 'json' && isWholeDownload(query, format)) {
      // Every correction from there (a download): pages of the default size, as `Link` walks them.
      const read = (from: CorrectionPosition | undefined) =>
        this.page(filter, DEFAULT_CORRECTIONS_LIMIT, from);
      const pages = feedPages(await read(after), read, (placed) => placed.position);
      return { chunks: correctionsChunks(pages, format) };
    }
    const placed = await this.page(filter, query.limit ?? DEFAULT_CORRECTIONS_LIMIT, after);
    return correctionsPage(placed, format);
  }

  /** The first `limit` corrections of the filter past `after`. */
  private async page(
    filter: CorrectionFilter,
    limit: number,
    after: CorrectionPosition | undefined,
  ): Promise<PlacedCorrection[]> {
    // Each revision is one correction or more: one more than the page (and the one the cursor
    // stops inside) tells whether it is full.
    const revisions = await this.listPages.run(() =>
      this.repository.revisions(filter, limit + 2, { after }),
    );
    let placed: PlacedCorrection[] = revisions.flatMap(correctionsOf);
    if (after) {
      placed = placed.filter(
        ({ position: p }) => p.seq !== after.seq || p.id !== after.id || p.field > after.field,
      );
    }
    return placed.slice(0, limit);
  }

  /**
   * A country's latest corrections, latest first, without their source, as JSON text
   * `{country, corrections}`; cached. 404 without a record, as its public weekly answer.
   */
  publicJson(country: string, limit = DEFAULT_PUBLIC_CORRECTIONS): Promise<CachedValue<string>> {
    const key = countryLookupKey(country);
    return this.cache.getCached(`json:corrections:${key}:${limit}`, async () => {
      const name = await this.placeName(key);
      if (name === null) throw ApiError.notFound(MESSAGES.countryNotFound);
      const revisions = await this.repository.revisions({ countryKey: key }, limit, {
        latest: true,
      });
      const corrections = revisions
        .flatMap(correctionsOf)
        .slice(0, limit)
        .map((p) => publicCorrection(p.correction));
      return JSON.stringify({ country: name, corrections });
    });
  }

  /** The dates of a place with a correction (as of `asOf`, epoch ms, when given). */
  async correctedDates(key: string, asOf?: number): Promise<Set<string>> {
    return new Set((await this.repository.correctedDays(key, asOf)).map((day) => day.date));
  }

  /** The dates a member of the region `name` had corrected (kept with the region's days). */
  regionCorrectedDates(name: string): Promise<Set<string>> {
    return this.repository.regionCorrectedDates(name).then((dates) => new Set(dates));
  }

  /**
   * The corrected dates of every place as of `asOf`, by place key: a read as of an instant reads
   * the corrected days made by then (live reads take a place's or a region's, kept by the writes).
   */
  async correctedPlaces(asOf: number): Promise<CorrectedPlaces> {
    const places: CorrectedPlaces = new Map();
    for (const { key, date } of await this.repository.correctedDays(undefined, asOf)) {
      const dates = places.get(key) ?? new Set<string>();
      dates.add(date);
      places.set(key, dates);
    }
    return places;
  }

  /** The figures corrected by the revisions that carry `requestId` (an import's id). */
  figuresCorrectedBy(requestId: string): Promise<number> {
    return this.repository.countFigures({ requestId });
  }
}

/** The dates with a correction of any of the places `keys` (all when not given). */
export function correctedOfAny(places: CorrectedPlaces, keys?: readonly string[]): Set<string> {
  const dates = new Set<string>();
  for (const key of keys ?? places.keys()) {
    for (const date of places.get(key) ?? []) dates.add(date);
  }
  return dates;
}
