import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { DestinationStream, destination as pinoDestination } from 'pino';
import { AuthModule } from '../auth/auth.module';
import { TokenService } from '../auth/token.service';
import { requestLogOptions } from './request-log.options';

/**
 * Structured JSON logs with pino: Nest's own logger is replaced (see bootstrap) and every request
 * gets one line. `destination` (tests) replaces standard output.
 */
@Module({})
export class LoggingModule {
  static forRoot(level: string, destination?: DestinationStream): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          imports: [AuthModule],
          inject: [TokenService],
          useFactory: (tokens: TokenService) => {
            const options = requestLogOptions(level, tokens);
            // Synchronous writes to standard output: no line is lost when the process exits.
            const stream = destination ?? pinoDestination({ fd: 1, sync: true });
            // Every route, written the way path-to-regexp 8 wants it (no legacy `*` warning).
            return {
              pinoHttp: [options, stream],
              forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
            };
          },
        }),
      ],
    };
  }
}
