import { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigValidationError, loadConfig } from '@app/config';
import { CliError } from './cli-error';
import { CliModule } from './cli.module';

/**
 * Runs `work` with one service of a Nest application context (same configuration and database
 * as the API), then closes the context so that the process can exit.
 */
export async function withService<S, R>(
  service: Type<S>,
  work: (instance: S) => Promise<R>,
): Promise<R> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) throw new CliError(error.message);
    throw error;
  }
  let context: INestApplicationContext;
  try {
    context = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    throw new CliError(`cannot open the database: ${describe(error)}`);
  }
  try {
    return await work(context.get(service));
  } finally {
    await context.close();
  }
}

/** The first line of an error's message: enough to act on, no stack trace. */
export function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 300);
}
