import { Logger } from '@nestjs/common';

export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * The graceful shutdown itself is Nest's (see `enableShutdownHooks` in bootstrap): on the first
 * signal it stops accepting connections, waits for requests in flight, closes the database pool and
 * Redis, then exits 0. This bounds it: if it has not finished after `timeoutSeconds` (a request
 * stuck on a dead database, a client that never reads), the process exits with code 1.
 */
export function armShutdownDeadline(timeoutSeconds: number): void {
  const logger = new Logger('Shutdown');
  process.once('exit', (code) => logger.log(`Exiting with code ${code}`));
  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, () => {
      logger.log(`${signal} received: finishing requests in flight, then exiting`);
      setTimeout(() => {
        logger.error(`Shutdown did not finish within ${timeoutSeconds}s: exiting now`);
        process.exit(1);
      }, timeoutSeconds * 1000).unref();
    });
  }
}
