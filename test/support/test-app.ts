import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '@app/config';
import { CreateAppOptions, createApp } from '@api/bootstrap';
import { TestDatabase, createTestDatabase } from './test-database';

export const TOKENS = {
  alice: 'alice-token-0123456789abcdef',
  bob: 'bob-token-0123456789abcdef',
  /** Reads the figures only (`covid:read`, `mpox:read`), as a browser app's token should. */
  reader: 'reader-token-0123456789abcdef',
};

/** alice and bob hold every scope (no scope list); reader only reads. */
export const DEFAULT_API_TOKENS =
  `alice:${TOKENS.alice},bob:${TOKENS.bob},` +
  `reader:${TOKENS.reader}:scopes=covid:read+mpox:read`;

export interface TestApp {
  app: NestFastifyApplication;
  http: TestAgent;
  config: AppConfig;
  dataSource: DataSource;
  /** `Authorization` header of a known client. */
  auth(client?: keyof typeof TOKENS): { Authorization: string };
  close(): Promise<void>;
}

/**
 * Boots the real application (same bootstrap as `main.ts`) on a throw-away database. `env`
 * overrides variables exactly as the environment would; `options` as for createApp (e.g. where
 * the log lines go). `databaseOf`: another instance on the same database (which that instance
 * drops).
 */
export async function bootTestApp(
  env: Record<string, string> = {},
  options: CreateAppOptions = {},
  databaseOf?: TestApp,
): Promise<TestApp> {
  const database: TestDatabase = databaseOf
    ? { config: databaseOf.config.db, drop: () => Promise.resolve() }
    : await createTestDatabase();
  const config = loadConfig({
    API_TOKENS: DEFAULT_API_TOKENS,
    THROTTLE_LIMIT: '100000',
    LOG_LEVEL: 'silent',
    ...env,
  });
  config.db = { ...config.db, ...database.config };
  const app = await createApp(config, options);
  return {
    app,
    http: request(app.getHttpServer()),
    config,
    dataSource: app.get(DataSource),
    auth: (client = 'alice') => ({ Authorization: `Bearer ${TOKENS[client]}` }),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
