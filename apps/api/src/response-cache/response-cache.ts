import { ExecutionContext, Injectable, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ContentCoding } from '../compression/response-compression';
import { AnswerStore, SentAnswer } from '../http-cache/answer-store';
import { acceptedFormat } from '../list-routes/format-negotiation';

type Handler = (...args: never[]) => unknown;
type ClassRef = abstract new (...args: never[]) => unknown;

const SERVED = Symbol('servedFromResponseCache');
const MISSED = Symbol('missedByResponseCache');

/** Metadata key of `@CachedResponse()`: the route's answers may be kept here. */
export const KEEP_ANSWERS = 'keepAnswersInResponseCache';

/** Headers a handler sets on its answer that are kept and served with it. */
export const KEPT_HEADERS = ['link', 'content-disposition'] as const;

interface Served {
  [SERVED]?: true;
  [MISSED]?: true;
}

/**
 * A successful answer of a `@CachedResponse()` route, as its controller sent it: served while its
 * `source` is current; its length in bytes says whether it is compressed, and so its `ETag` and
 * `Vary`.
 */
export interface CachedAnswer extends SentAnswer {
  /** `KEPT_HEADERS` the handler set (a list page's `Link`, a download's `Content-Disposition`). */
  extraHeaders: readonly (readonly [string, string])[];
  /** The route that made it: the guards run against it again for every request served. */
  classRef: Type<unknown>;
  handler: Handler;
}

/**
 * Where an answer is kept: its URL, and the list format its `Accept` header asks for, so that a
 * CSV answer negotiated for one client is never served to another that asked for JSON at the
 * same URL. Routes that are not lists ignore `Accept`, and are merely kept once per format asked.
 */
function keyOf(url: string, accept: string | string[] | undefined): string {
  const format = acceptedFormat(accept);
  return format === 'json' ? url : `${url} ${format}`;
}

/**
 * The answers of `@CachedResponse()` routes (the public ones, small lists) by request URL (path
 * and query string, as sent) and `Accept`'s format, each kept exactly as long as the cached value it is (the
 * `ReadCache` entry it is: at most `CACHE_TTL_MS`, dropped by every write of this instance and
 * every change announced by the others). Bounded like `ReadCache`: past `maxEntries` URLs it
 * drops the answers no longer current, or else starts again from empty.
 */
@Injectable()
export class ResponseCache implements AnswerStore {
  private readonly answers = new Map<string, CachedAnswer>();
  /** The compressed bodies of answers no longer current, by key, until the key is kept again. */
  private readonly retired = new Map<string, Pick<CachedAnswer, 'headers' | 'compressed'>>();
  private readonly reflector = new Reflector();

  constructor(private readonly maxEntries = 1000) {}

  keeps(handler: Handler, classRef: ClassRef): boolean {
    return this.reflector.getAllAndOverride<boolean>(KEEP_ANSWERS, [handler, classRef]) === true;
  }

  noteMissed(request: object): void {
    (request as Served)[MISSED] = true;
  }

  keep(context: ExecutionContext, answer: SentAnswer): void {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    this.set(
      request.url,
      {
        ...answer,
        extraHeaders: KEPT_HEADERS.flatMap((name) => {
          const header = reply.getHeader(name);
          return typeof header === 'string' ? [[name, header] as const] : [];
        }),
        classRef: context.getClass(),
        handler: context.getHandler() as Handler,
      },
      request.headers.accept,
    );
  }

  /** The answer for `url` and `accept`, if one is kept and still current. */
  get(url: string, accept?: string | string[]): CachedAnswer | undefined {
    const key = keyOf(url, accept);
    const answer = this.answers.get(key);
    if (answer === undefined) return undefined;
    if (answer.source.isCurrent()) return answer;
    this.answers.delete(key);
    this.retire(key, answer);
    return undefined;
  }

  /**
   * The body kept for `url` and `accept`, current or not, compressed with `coding`, if it is the
   * body tagged `etag`: a body read again unchanged (the read cache's entry expired) is not
   * compressed again, which costs far more than reading and tagging it.
   */
  compressedVariant(
    url: string,
    accept: string | string[] | undefined,
    etag: string,
    coding: ContentCoding,
  ): Buffer | undefined {
    const key = keyOf(url, accept);
    const kept = this.answers.get(key) ?? this.retired.get(key);
    return kept?.headers.etag === etag ? kept.compressed[coding] : undefined;
  }

  /** Keeps what `compressedVariant` needs of an answer no longer current, within the bound. */
  private retire(key: string, answer: CachedAnswer): void {
    if (Object.keys(answer.compressed).length === 0) return;
    if (this.retired.size >= this.maxEntries) this.retired.clear();
    this.retired.set(key, { headers: answer.headers, compressed: answer.compressed });
  }

  /**
   * Keeps `answer` for `url`, unless what it was made of has changed already. When full, the
   * answers no longer current go first (nothing removes them otherwise until their URL is asked
   * for again); only if all are current does it start again from empty.
   */
  set(url: string, answer: CachedAnswer, accept?: string | string[]): void {
    const key = keyOf(url, accept);
    const now = Date.now();
    if (!answer.source.isCurrent(now)) return;
    const previous = this.answers.get(key) ?? this.retired.get(key);
    this.retired.delete(key);
    if (previous?.headers.etag === answer.headers.etag) {
      answer.compressed = { ...previous.compressed, ...answer.compressed };
    }
    if (this.answers.size >= this.maxEntries && !this.answers.has(key)) {
      for (const [kept, other] of this.answers) {
        if (!other.source.isCurrent(now)) this.answers.delete(kept);
      }
      if (this.answers.size >= this.maxEntries) this.answers.clear();
    }
    this.answers.set(key, answer);
  }

  /**
   * Notes on `request` that it was answered from here (the request log says so). A property, not
   * a WeakSet: tens of thousands of weak entries a second weigh on the garbage collector.
   */
  static markServed(request: object): void {
    (request as Served)[SERVED] = true;
  }

  static wasServed(request: object): boolean {
    return (request as Served)[SERVED] === true;
  }

  /** Whether a `@CachedResponse()` GET was answered by its controller (`noteMissed`). */
  static wasMissed(request: object): boolean {
    return (request as Served)[MISSED] === true;
  }
}
