import { LoggerService } from '@nestjs/common';
import { DestinationStream, Logger, destination, pino, stdTimeFunctions } from 'pino';

/**
 * The one pino logger of the process: JSON lines with an ISO time and the level's name.
 * Synchronous writes to standard output, so that no line is lost when the process exits.
 */
export function createAppLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Nothing logs headers; should anything ever do, these never reach the output.
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization'],
        censor: '[redacted]',
      },
    },
    stream ?? destination({ fd: 1, sync: true }),
  );
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's line per module, controller and route at start-up (about a hundred): debug, so that at
 * info the start-up says what matters, ending with where the API listens (listening-log.ts).
 */
const START_UP_DETAIL = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's own messages (start-up, errors...) as pino lines with their `context`. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const context = params.length > 0 ? params[params.length - 1] : undefined;
    const fields = typeof context === 'string' ? { context } : {};
    this.logger[level](fields, typeof message === 'string' ? message : String(message));
  }

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    const detail = typeof context === 'string' && START_UP_DETAIL.has(context);
    this.write(detail ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
}
