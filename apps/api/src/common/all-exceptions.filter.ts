import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiError, BODY_PROBLEMS, ErrorBody, MESSAGES } from '@app/common';
import { isDatabaseUnavailable, isWriteRaceLost } from '@app/database';
import { JSON_TYPE } from './json-content-type';

/** Statuses that HTTP itself (router, body parser) raises, with the API's message for each. */
const STATUS_MESSAGES: Partial<Record<number, string>> = {
  [HttpStatus.BAD_REQUEST]: MESSAGES.malformedJson,
  [HttpStatus.NOT_FOUND]: MESSAGES.routeNotFound,
  [HttpStatus.METHOD_NOT_ALLOWED]: MESSAGES.methodNotAllowed,
  [HttpStatus.PAYLOAD_TOO_LARGE]: MESSAGES.payloadTooLarge,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: MESSAGES.unsupportedMediaType,
  [HttpStatus.TOO_MANY_REQUESTS]: MESSAGES.tooManyRequests,
  [HttpStatus.SERVICE_UNAVAILABLE]: MESSAGES.databaseUnavailable,
};

/**
 * Seconds a client should wait before sending a bulk write again that gave up against other
 * writers: their churn is brief, and the write is whole or nothing, so the same request is safe.
 */
export const WRITE_RACE_RETRY_AFTER_S = 1;

interface ErrorWithStatus {
  statusCode?: number;
  code?: string;
  message?: string;
  name?: string;
}

/**
 * The one place that shapes error bodies: `{ error, details? }`, JSON, never a stack trace, SQL
 * text or token. Database outages answer 503; anything unexpected 500 (and is logged).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    // Server-side failures are logged with the request's id (its X-Request-Id header).
    const { status, body, retryAfter } = this.describe(
      exception,
      `request ${http.getRequest<{ id?: string }>().id}`,
    );
    const { httpAdapter } = this.adapterHost;
    const response: unknown = http.getResponse();
    if (retryAfter !== undefined)
      httpAdapter.setHeader(response, 'Retry-After', String(retryAfter));
    // A route's own type (`@Header('Content-Type', …)`, set before its handler) is not the error's.
    httpAdapter.setHeader(response, 'Content-Type', JSON_TYPE);
    httpAdapter.reply(response, body, status);
  }

  private describe(
    exception: unknown,
    request: string,
  ): { status: number; body: ErrorBody; retryAfter?: number } {
    if (exception instanceof ApiError) {
      return { status: exception.getStatus(), body: exception.getResponse() as ErrorBody };
    }
    if (exception instanceof HttpException) {
      return this.fromStatus(exception.getStatus(), exception, request);
    }
    const error = (exception ?? {}) as ErrorWithStatus;
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return this.fromStatus(error.statusCode, error, request);
    }
    if (isWriteRaceLost(exception)) {
      this.logger.warn(`Bulk write gave up (${request}): ${describeError(error)}`);
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: { error: MESSAGES.writeRaceLost },
        retryAfter: WRITE_RACE_RETRY_AFTER_S,
      };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable (${request}): ${describeError(error)}`);
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: { error: MESSAGES.databaseUnavailable },
      };
    }
    this.logger.error(`Unexpected error (${request}): ${describeError(error)}`);
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { error: MESSAGES.internal } };
  }

  private fromStatus(
    status: number,
    error: ErrorWithStatus,
    request: string,
  ): { status: number; body: ErrorBody } {
    if (status === 400) {
      // Fastify's parser errors reach here as HttpExceptions (Nest maps them), code or message.
      const empty =
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        /cannot be empty/i.test(error.message ?? '');
      const detail = empty ? BODY_PROBLEMS.empty : BODY_PROBLEMS.notJson;
      return { status, body: { error: MESSAGES.malformedJson, details: [detail] } };
    }
    if (status >= 500) {
      this.logger.error(`HTTP ${status} (${request}): ${describeError(error)}`);
      return { status, body: { error: STATUS_MESSAGES[status] ?? MESSAGES.internal } };
    }
    return { status, body: { error: STATUS_MESSAGES[status] ?? MESSAGES.refused } };
  }
}

/** Name, driver code and first line of the message: enough to act on, no SQL text or stack. */
export function describeError(exception: unknown): string {
  const error = (exception ?? {}) as ErrorWithStatus & { driverError?: ErrorWithStatus };
  const code = error.driverError?.code ?? error.code;
  const message = (error.driverError?.message ?? error.message ?? '').split('\n')[0].slice(0, 200);
  return [error.name ?? 'Error', code, message].filter(Boolean).join(' ');
}
