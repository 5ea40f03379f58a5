import { DynamicModule, Global, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { PinoNestLogger } from './app-logger';

export const APP_LOGGER = Symbol('APP_LOGGER');

/**
 * Structured JSON logs with pino: Nest's own logger is replaced from the start (see bootstrap) and
 * every request gets one line (request-log.ts).
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger): DynamicModule {
    return {
      module: LoggingModule,
      providers: [
        { provide: APP_LOGGER, useValue: logger },
        { provide: PinoNestLogger, useValue: new PinoNestLogger(logger) },
      ],
      exports: [APP_LOGGER, PinoNestLogger],
    };
  }
}
