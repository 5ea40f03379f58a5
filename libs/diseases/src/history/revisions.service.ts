import { ApiError, MESSAGES, parseInstant, problemMessage, ConcurrencyLimit } from '@app/common';
import { FeedBody, ListFormat, feedPages, isWholeDownload } from '../list-format';
import { checkAsOf, parseAsOf } from './as-of';
import { decodeChangeCursor } from './change-cursor';
import {
  ChangeFeedQuery,
  DEFAULT_FEED_LIMIT,
  changeFeedChunks,
  changeFeedPage,
} from './change-feed';
import { FeedPosition, RecordRevision, RevisionRepository } from '@app/database';

/** The reads of a disease's history: the change feed, a record's revisions, `as_of` checks. */
export class RevisionsService {
  /** `listPages`: the turns the large lists' queries take, which the feed's take too. */
  constructor(
    private readonly revisions: RevisionRepository,
    private readonly listPages: ConcurrencyLimit,
  ) {}

  /**
   * A page of the change feed in `format` (see `RevisionRepository.feed`). `after` (a cursor)
   * continues a feed, `since` starts one at a time: not both (400), the cursor alone is exact.
   * The page's queries take their turn with the large lists' (`listPages`).
   */
  async changes(query: ChangeFeedQuery, format: ListFormat = 'json'): Promise<FeedBody> {
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
    if (format !== 'json' && isWholeDownload(query, format)) {
      // The whole feed from there (a download): pages of the default size, each past the last.
      const read = (start: { after?: FeedPosition; since?: number }) =>
        this.listPages.run(() => this.revisions.feed(start, DEFAULT_FEED_LIMIT));
      const first = await read({ after, since });
      const pages = feedPages(
        first,
        (next: FeedPosition) => read({ after: next }),
        (revision) => ({ seq: revision.seq, id: revision.id }),
      );
      return { chunks: changeFeedChunks(pages, format) };
    }
    const limit = query.limit ?? DEFAULT_FEED_LIMIT;
    const revisions = await this.listPages.run(() => this.revisions.feed({ after, since }, limit));
    return changeFeedPage(revisions, format);
  }

  /** A record's revisions, oldest first; 404 for an id that never existed. */
  async history(id: number): Promise<RecordRevision[]> {
    const revisions = await this.revisions.ofRecord(id);
    if (revisions.length === 0) throw ApiError.notFound(MESSAGES.recordNotFound);
    return revisions.map((revision, i) => ({
      revision: i + 1,
      at: new Date(revision.at).toISOString(),
      actor: revision.actor,
      change: revision.kind,
      record: revision.values === null ? null : { id, ...revision.values },
    }));
  }

  /**
   * An `as_of` value as epoch ms, checked (`asOfInstant`, `checkKept`); undefined when not given.
   */
  async instant(asOf: string | undefined): Promise<number | undefined> {
    if (asOf === undefined) return undefined;
    const instant = asOfInstant(asOf);
    await this.checkKept(instant);
    return instant;
  }

  /** A 400 naming `as_of` for a moment before the history was pruned: no longer known. */
  async checkKept(asOf: number): Promise<void> {
    const since = await this.revisions.keptSince();
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
}

/**
 * An `as_of` as epoch ms; a 400 naming it when it is not an instant, or one still to come (checked
 * here, per request: the API's pipe remembers its outcomes, and the clock moves).
 */
export function asOfInstant(value: string): number {
  const problem = checkAsOf(value, 'as_of');
  if (problem !== undefined) {
    throw ApiError.badRequest(MESSAGES.invalidQuery, [problemMessage(problem)]);
  }
  return Number(parseAsOf(value));
}
