import {
  CallHandler,
  ExecutionContext,
  HttpStatus,
  Injectable,
  Logger,
  NestInterceptor,
} from '@nestjs/common';
import { Observable, throwError, timeout } from 'rxjs';
import { ApiError, MESSAGES } from '@app/common';
import { AppConfig, InjectConfig } from '@app/config';

/**
 * Every handler answers within twice the database timeout (`DB_TIMEOUT_MS`): each query has its
 * own deadline, but a request may also wait for a pooled connection behind others while the
 * database hangs. Past the deadline the request answers 503, like any database outage.
 */
@Injectable()
export class RequestDeadlineInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Errors');
  private readonly deadlineMs: number;

  constructor(@InjectConfig() config: AppConfig) {
    this.deadlineMs = 2 * config.db.timeoutMs;
  }

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout({
        first: this.deadlineMs,
        with: () => {
          this.logger.warn(`Database unavailable: no answer within ${this.deadlineMs} ms`);
          return throwError(
            () => new ApiError(HttpStatus.SERVICE_UNAVAILABLE, MESSAGES.databaseUnavailable),
          );
        },
      }),
    );
  }
}
