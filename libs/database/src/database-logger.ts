import { Logger as NestLogger } from '@nestjs/common';
import { Logger } from 'typeorm';

/**
 * TypeORM's log output, through the application's logger and never with SQL text or parameters
 * (TypeORM's default logger prints both for every slow or timed-out query).
 */
export class DatabaseLogger implements Logger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  logQueryError(): void {}

  logQuerySlow(time: number): void {
    this.logger.warn(`Slow or timed-out query: ${time} ms`);
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
