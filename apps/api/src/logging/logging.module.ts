import { DynamicModule, Global, Module } from '@nestjs/common';
import { DestinationStream } from 'pino';
import { PinoNestLogger, createAppLogger } from './app-logger';

export const APP_LOGGER = Symbol('APP_LOGGER');

/**
 * Structured JSON logs with pino: Nest's own logger is replaced (see bootstrap) and every request
 * gets one line (request-log.ts). `destination` (tests) replaces standard output.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(level: string, destination?: DestinationStream): DynamicModule {
    const logger = createAppLogger(level, destination);
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
