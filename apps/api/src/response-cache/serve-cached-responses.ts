import {
  CanActivate,
  ExceptionFilter,
  ExecutionContext,
  ForbiddenException,
  Logger,
  Type,
} from '@nestjs/common';
import { MESSAGES } from '@app/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, isObservable, lastValueFrom } from 'rxjs';
import { AllExceptionsFilter, describeError } from '../common/all-exceptions.filter';
import { isImmediateGuard } from '../route-metadata/immediate-guard';
import { JSON_TYPE } from '../common/json-content-type';
import { ifNoneMatchHits } from '../http-cache/entity-tag';
import { compressBody } from '../compression/response-compression';
import { notModified, setCacheHeaders } from '../http-cache/http-cache-policy';
import { CachedAnswer, ResponseCache } from './response-cache';
import { RouteContext } from '../route-metadata/route-context';

/**
 * Answers a GET whose answer the `ResponseCache` keeps before Nest's router: after every Fastify
 * hook (security headers, request id, CORS), the application's global guards run against the
 * route that made the answer, as Nest runs them (the same instances, in the same order: the rate
 * limit counts the request and sets its `X-RateLimit-*` headers, or refuses it), and a refusal is
 * answered by the application's exception filter, as Nest would. What is skipped is Nest's
 * router, the global pipe (the URL, hence the parameters, are those of the answer kept) and the
 * controller (whose answer this is); routes with guards, interceptors or pipes of their own are
 * refused at start-up (`CachedRouteCheck`). `globalGuards` are the application's global guards
 * in the order Nest runs them (`GLOBAL_GUARDS`); a global interceptor would not run here. Kept
 * because Nest's pipeline costs the public routes their share of the bare baseline
 * (docs/decisions/0002-cached-response-fast-path.md).
 */
export function serveCachedResponses(
  app: NestFastifyApplication,
  globalGuards: readonly Type<CanActivate>[],
): void {
  const cache = app.get(ResponseCache);
  const guards = globalGuards.map((guard) => verdictOf(app.get<CanActivate>(guard)));
  const filter: ExceptionFilter = app.get(AllExceptionsFilter);
  const logger = new Logger('ResponseCache');

  const send = (request: FastifyRequest, reply: FastifyReply, kept: CachedAnswer) => {
    ResponseCache.markServed(request);
    const coding = setCacheHeaders(reply, kept.headers, kept.bytes);
    for (const [name, value] of kept.extraHeaders) void reply.header(name, value);
    if (ifNoneMatchHits(request.headers['if-none-match'], kept.headers.etag)) {
      void notModified(reply).send();
      return;
    }
    void reply.code(200).header('content-type', kept.contentType);
    if (coding === undefined) {
      void reply.send(kept.source.value);
      return;
    }
    // Compressed once per kept answer and coding, not per request (the compression hook lets
    // an answer that has its Content-Encoding through as it is).
    const body = (kept.compressed[coding] ??= compressBody(kept.source.value, coding));
    void reply.header('content-encoding', coding).send(body);
  };
  const refuse = (error: unknown, context: RouteContext) => {
    try {
      filter.catch(error, context);
    } catch (failure) {
      // Only if the exception filter itself failed: a bare 500, never the process's end.
      const { request, reply } = context;
      logger.error(`Cached answer failed (request ${request.id}): ${describeError(failure)}`);
      if (!reply.sent) void reply.code(500).type(JSON_TYPE).send({ error: MESSAGES.internal });
    }
  };
  /** The guards from `from` on, the first one's verdict pending: only with a guard that awaits. */
  const answerLater = async (
    context: RouteContext,
    kept: CachedAnswer,
    pending: Promise<boolean>,
    from: number,
  ) => {
    try {
      if (!(await pending)) throw new ForbiddenException();
      for (let i = from + 1; i < guards.length; i++) {
        if (!(await guards[i](context))) throw new ForbiddenException();
      }
      send(context.request, context.reply, kept);
    } catch (error) {
      refuse(error, context);
    }
  };
  /**
   * When every guard decides at once (the token guard, whose `canActivate` answers a boolean, and
   * the rate limit with its counters in memory, an `ImmediateGuard`), the answer is sent before
   * this returns: an await here costs the cached routes a visible share of their speed.
   */
  const answer = (request: FastifyRequest, reply: FastifyReply, kept: CachedAnswer) => {
    const context = new RouteContext(request, reply, kept.classRef, kept.handler);
    try {
      for (let i = 0; i < guards.length; i++) {
        const verdict = guards[i](context);
        if (verdict === true) continue;
        if (verdict === false) throw new ForbiddenException();
        // `refuse` answers any failure; should even its bare 500 fail, the connection is closed
        // rather than left waiting (and the rejection is not left unhandled).
        answerLater(context, kept, verdict, i).catch(() => reply.raw.destroy());
        return;
      }
      send(request, reply, kept);
    } catch (error) {
      refuse(error, context);
    }
  };

  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preHandler', (request, reply, done) => {
      const kept =
        request.method === 'GET' ? cache.get(request.url, request.headers.accept) : undefined;
      if (kept === undefined) {
        done();
        return;
      }
      // Answered here: `done` is not called, so Nest's handler does not run.
      answer(request, reply, kept);
    });
}

/**
 * A guard's verdict by Nest's own rules (GuardsConsumer): a promise or observable is waited for,
 * a guard that answers false refuses with a 403. An `ImmediateGuard` is asked first.
 */
function verdictOf(guard: CanActivate): (context: ExecutionContext) => boolean | Promise<boolean> {
  const later = (context: ExecutionContext): boolean | Promise<boolean> => {
    const verdict = guard.canActivate(context);
    if (typeof verdict === 'boolean') return verdict;
    // GuardsConsumer.pickResult: the value awaited, then an observable's last value.
    return Promise.resolve(verdict).then((value: boolean | Observable<boolean>) =>
      isObservable(value) ? lastValueFrom(value) : value,
    );
  };
  if (!isImmediateGuard(guard)) return later;
  return (context) => guard.canActivateNow(context) ?? later(context);
}
