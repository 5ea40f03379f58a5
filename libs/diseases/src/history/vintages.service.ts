import {
  ApiError,
  ConcurrencyLimit,
  MESSAGES,
  addDays,
  parseInstant,
  problemMessage,
} from '@app/common';
import { countryLookupKey } from '@app/countries';
import {
  FigureDay,
  VINTAGE_FIELDS,
  VintageField,
  VintageFilter,
  VintagesRepository,
} from '@app/database';
import { ListFormat, listChunks } from '../list-format';
import { VintagePosition, decodeVintageCursor } from './vintage-cursor';
import {
  DEFAULT_VINTAGES_LIMIT,
  PlacedVintage,
  VINTAGE_COLUMNS,
  Vintage,
  VintagesPage,
  figuresAtLag,
  groupsOf,
  versionsAfter,
  versionsOf,
  vintagesPage,
} from './vintage-list';

/** Versions per page of a whole download: one turn of the event loop each. */
const WHOLE_PAGE = 250;

/** The query of `GET /<key>/vintages`, validated in form by the API's DTO. */
export interface VintagesQuery {
  country?: string;
  from?: string;
  to?: string;
  fields?: string;
  issued_since?: string;
  issued_until?: string;
  after?: string;
  limit?: number;
}

const badQuery = (...problems: Parameters<typeof problemMessage>[0][]) =>
  ApiError.badRequest(MESSAGES.invalidQuery, problems.map(problemMessage));

/** The figures `text` names (comma-separated), or the names that are not figures. */
export function parseVintageFields(
  text: string | undefined,
): { fields: VintageField[] } | { unknown: string[] } {
  if (text === undefined) return { fields: [...VINTAGE_FIELDS] };
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(VINTAGE_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) return { unknown };
  return { fields: VINTAGE_FIELDS.filter((field) => names.includes(field)) };
}

/**
 * Revisions read at most per request beyond the page's own: a filter on `issued_since` or
 * `issued_until` that skips most versions answers a short page (even an empty one) with its
 * cursor, rather than walking the whole history for one request.
 */
const READ_BUDGET = 20_000;

/**
 * Every version of every stored figure (docs/vintages.md): `/vintages`, and the figures of a
 * place as they stood N days after each date (`/series?lag=N`). COVID and MPOX share it.
 */
export class VintagesService {
  /** @param readBudget revisions a request reads at most beyond its page (READ_BUDGET). */
  constructor(
    private readonly repository: Pick<VintagesRepository, 'revisionsOf'>,
    private readonly listPages: ConcurrencyLimit,
    private readonly readBudget = READ_BUDGET,
  ) {}

  /** A page of `/vintages` in `format`; 400 naming the parameter for a query that cannot be. */
  async list(query: VintagesQuery, format: ListFormat): Promise<VintagesPage> {
    const { filter, fields, issued, after } = this.prepare(query);
    const limit = query.limit ?? DEFAULT_VINTAGES_LIMIT;
    const page = await this.listPages.run(() => this.read(filter, fields, issued, limit, after));
    return vintagesPage(page.placed, page.next, format);
  }

  /**
   * Every version of `query` (from its cursor on) as chunks of `format`: a download without
   * `limit`, read page after page (each taking its turn with the other large lists'), pages of
   * `WHOLE_PAGE` versions: each is one turn of the event loop, short on SQLite, whose reads hold
   * the loop, on a slow host too (decision 0056). Checked
   * before the first chunk, so that a bad query is a 400, not a broken stream.
   */
  whole(query: VintagesQuery, format: ListFormat): AsyncIterable<string> {
    const { filter, fields, issued, after } = this.prepare(query);
    const pages = async function* (this: VintagesService): AsyncGenerator<Vintage[]> {
      let position = after;
      for (;;) {
        const page = await this.listPages.run(() =>
          this.read(filter, fields, issued, WHOLE_PAGE, position),
        );
        yield page.placed.map((p) => p.vintage);
        if (page.next === undefined) return;
        position = page.next;
      }
    };
    return listChunks(format, VINTAGE_COLUMNS, pages.call(this));
  }

  /** The query checked and worked out; 400 naming the parameter for one that cannot be. */
  private prepare(query: VintagesQuery) {
    const after = query.after === undefined ? undefined : decodeVintageCursor(query.after);
    if (query.after !== undefined && after === undefined) {
      throw badQuery({ field: 'after', problem: 'not-a-cursor' });
    }
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      throw badQuery({ field: 'from', problem: 'later-than', other: 'to' });
    }
    const parsed = parseVintageFields(query.fields);
    if ('unknown' in parsed) {
      throw badQuery({ field: 'fields', problem: 'not-one-of', values: VINTAGE_FIELDS });
    }
    const since = query.issued_since === undefined ? undefined : parseInstant(query.issued_since);
    const until = query.issued_until === undefined ? undefined : parseInstant(query.issued_until);
    if (since !== undefined && until !== undefined && since > until) {
      throw badQuery({ field: 'issued_since', problem: 'later-than', other: 'issued_until' });
    }
    const filter: VintageFilter = {
      countryKey: query.country === undefined ? undefined : countryLookupKey(query.country),
      from: query.from,
      to: query.to,
    };
    const issued = (p: PlacedVintage) => {
      const at = Date.parse(p.vintage.issued_at);
      return (since === undefined || at >= since) && (until === undefined || at < until);
    };
    return { filter, fields: parsed.fields, issued, after };
  }

  /**
   * The versions of the page: revisions read in batches of whole places and dates from `after`'s
   * (inclusive, the versions up to the cursor then left out), until one more than the page is
   * found, the revisions end, or the read budget is spent (the cursor is then the end of the last
   * place and date read).
   */
  private async read(
    filter: VintageFilter,
    fields: readonly VintageField[],
    issued: (p: PlacedVintage) => boolean,
    limit: number,
    after: VintagePosition | undefined,
  ): Promise<{ placed: PlacedVintage[]; next?: VintagePosition }> {
    const batch = Math.min(Math.max(limit + 1, 100), 10_000);
    const placed: PlacedVintage[] = [];
    let start = after ? { key: after.key, date: after.date } : undefined;
    let read = 0;
    for (;;) {
      const rows = await this.repository.revisionsOf({ ...filter, start }, batch);
      read += rows.length;
      let groups = groupsOf(rows);
      const full = rows.length === batch;
      // A full batch may end inside its last place and date: read that one again next time, or
      // whole now when it is the only one.
      if (full && groups.length > 1) groups = groups.slice(0, -1);
      else if (full) {
        const { key, date } = groups[0];
        groups = groupsOf(
          await this.repository.revisionsOf({ countryKey: key, from: date, to: date }),
        );
      }
      for (const group of groups) {
        const versions = versionsAfter(versionsOf(group, fields), after).filter(issued);
        placed.push(...versions);
        if (placed.length > limit) {
          return { placed: placed.slice(0, limit), next: placed[limit - 1].position };
        }
      }
      const last = groups[groups.length - 1];
      if (!full || !last) return { placed };
      start = { key: last.key, date: addDays(last.date, 1) };
      if (read >= this.readBudget + limit) {
        const end = { key: last.key, date: last.date, field: VINTAGE_FIELDS.length };
        return { placed, next: { ...end, seq: 0, order: 0, id: 0 } };
      }
    }
  }

  /**
   * A place's days within `range` as they stood `lag` days after each date (absent when nothing
   * was issued by then), with the dates whose figures had been corrected by then: one indexed
   * read of the place's revisions in the range.
   */
  async placeDaysAtLag(
    key: string,
    range: { from?: string; to?: string },
    lag: number,
  ): Promise<{ days: FigureDay[]; corrected: Set<string> }> {
    const revisions = await this.listPages.run(() =>
      this.repository.revisionsOf({ countryKey: key, from: range.from, to: range.to }),
    );
    const days: FigureDay[] = [];
    const corrected = new Set<string>();
    for (const group of groupsOf(revisions)) {
      const at = figuresAtLag(group, lag);
      if (at.day) days.push(at.day);
      if (at.day && at.corrected) corrected.add(group.date);
    }
    return { days, corrected };
  }
}
