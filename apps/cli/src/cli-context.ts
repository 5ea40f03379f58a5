import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describeError } from '@app/common';
import { ConfigValidationError, loadConfig } from '@app/config';
import { CliError } from './cli-error';
import { CliModule } from './cli.module';

/**
 * What a command does with a SQLite file that does not exist yet: `create` it (import, a first
 * token: a new installation), or refuse (`existing`: reading, rotating, revoking), since a mistyped
 * or relative `DB_PATH` run from another folder would otherwise answer from an empty database.
 */
export type DatabaseUse = 'create' | 'existing';

/**
 * Runs `work` with one service of a Nest application context (same configuration and database
 * as the API), then closes the context so that the process can exit.
 */
export async function withService<S, R>(
  service: Type<S>,
  work: (instance: S, context: INestApplicationContext) => Promise<R>,
  use: DatabaseUse = 'existing',
): Promise<R> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) throw new CliError(error.message);
    throw error;
  }
  const { db } = config;
  if (db.type === 'sqlite' && db.path !== ':memory:' && !existsSync(db.path)) {
    const where = `${resolve(db.path)} (DB_PATH)`;
    if (use === 'existing') {
      throw new CliError(
        `no SQLite database at ${where}: run the command from the API's folder or set DB_PATH`,
      );
    }
    process.stderr.write(`note: no SQLite database at ${where}: a new one is created\n`);
  }
  let context: INestApplicationContext;
  try {
    context = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    throw new CliError(`cannot open the database: ${describeError(error)}`);
  }
  try {
    return await work(context.get(service), context);
  } finally {
    await context.close();
  }
}
