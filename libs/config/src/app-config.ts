import { ConfigValidationError, parseByteSize, validateEnvironment } from './env.validation';
import { SyncConfig, parseSyncConfig } from './sync-config';
import { TrustProxy, parseTrustProxy } from './trust-proxy';
import { RATE_BUDGET_SHAPE, RATE_BUDGET_SYNTAX, RateBudget, parseRateBudget } from './rate-budget';
import { SCOPES, Scope, parseScopes } from './scopes';

/** A client's name (static tokens and the admin CLI's): 1 to 64 letters, digits, . _ @ -. */
export const CLIENT_NAME = /^[\w.@-]{1,64}$/;

/**
 * Names the service writes its own history under (the command line's `cli:revert`, listed as
 * `revert` among the corrections, `cli:restore`, `import:`, `sync:`, `migration:`), case ignored:
 * a client under one would pass for the command line or an import (decision 0042).
 */
export const RESERVED_CLIENT_NAMES =
  'revert, restore, cli:..., import:..., sync:..., migration:...';
const RESERVED_NAME = /^(?:revert|restore|(?:cli|import|sync|migration):.*)$/is;

export const isReservedClientName = (client: string): boolean => RESERVED_NAME.test(client.trim());

export type DbType = 'sqlite' | 'mysql';

export interface DatabaseConfig {
  type: DbType;
  /** SQLite file (or `:memory:`). */
  path: string;
  host: string;
  port: number;
  user: string;
  password: string;
  name: string;
  /**
   * How long one database operation may wait, in ms: MySQL connect and query timeouts, SQLite
   * busy timeout. Bounds every request when the database hangs (it then answers 503).
   */
  timeoutMs: number;
  /** MySQL connections per instance (default DEFAULT_POOL_SIZE). */
  poolSize?: number;
}

export interface StaticToken {
  client: string;
  token: string;
  /** The client's own rate limit (`name:token:100/60`), else the default one. */
  budget?: RateBudget;
  /** What the client may do (`name:token:scopes=covid:read+mpox:read`); every scope when absent. */
  scopes: Scope[];
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  db: DatabaseConfig;
  apiTokens: StaticToken[];
  throttle: { limit: number; ttlSeconds: number };
  redisUrl?: string;
  bodyLimitBytes: number;
  logLevel: string;
  corsOrigins: string[];
  /** The proxies trusted to tell the client's address (`TRUST_PROXY`); false: none. */
  trustProxy: TrustProxy;
  /** Seconds a graceful shutdown may take before the process exits anyway (code 1). */
  shutdownTimeoutSeconds: number;
  /** How often each instance checks the database for token changes (ms). */
  tokenRefreshMs: number;
  /** How long the public aggregates may be served from memory (0: never). */
  cacheTtlMs: number;
  /** `Cache-Control` of the public routes' answers: `max-age` and `stale-while-revalidate`, in seconds. */
  httpCache: { maxAgeSeconds: number; staleWhileRevalidateSeconds: number };
  /** Scheduled sync from the sources' URLs; absent when off (no `SYNC_SOURCES`). */
  sync?: SyncConfig;
  /** How much one import file may hold: past either, the import stops and writes nothing. */
  importLimits: ImportLimits;
  /** The heap limit of the sync's worker thread, in MiB (`SYNC_WORKER_MEMORY`). */
  syncWorkerMemoryMb: number;
}

/** `IMPORT_MAX_BYTES` (text once gunzipped) and `IMPORT_MAX_ROWS` (data rows, header aside). */
export interface ImportLimits {
  maxBytes: number;
  maxRows: number;
}

export const DEFAULT_DB_TIMEOUT_MS = 5000;

/**
 * Defaults of the import limits, well above the largest real sources (OWID's full COVID file is
 * about 100 MB, WHO's daily one 500,000 rows); the worker's heap holds an SQLite import at the
 * row limit (its rows wait in memory for the transaction). Decision 0043.
 */
export const DEFAULT_IMPORT_MAX_BYTES = '1gb';
export const DEFAULT_IMPORT_MAX_ROWS = 2_000_000;
export const DEFAULT_SYNC_WORKER_MEMORY = '2gb';

/** Marks the scope list at the end of an `API_TOKENS` entry. */
const SCOPES_MARKER = ':scopes=';

/**
 * `name:token[:budget][:scopes=a+b],...`: each client has a name (for logs and rate limits), its
 * own token, optionally its own rate limit and a scope list (`+`-separated: entries are
 * comma-separated). An entry without a scope list keeps every right, as before scopes existed.
 */
export function parseApiTokens(value: string | undefined): StaticToken[] {
  if (!value) return [];
  const problems: string[] = [];
  const tokens: StaticToken[] = [];
  const seen = new Set<string>();
  value
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .forEach((pair, index) => {
      const colon = pair.indexOf(':');
      const client = colon > 0 ? pair.slice(0, colon).trim() : '';
      let token = colon > 0 ? pair.slice(colon + 1).trim() : '';
      let scopes: Scope[] = [...SCOPES];
      const marker = token.lastIndexOf(SCOPES_MARKER);
      if (marker > 0) {
        const parsed = parseScopes(token.slice(marker + SCOPES_MARKER.length), '+');
        if ('unknown' in parsed) {
          problems.push(
            `API_TOKENS: unknown scope "${parsed.unknown.join('", "')}" for "${client}" (known: ${SCOPES.join(', ')})`,
          );
          return;
        }
        scopes = parsed.scopes;
        token = token.slice(0, marker).trim();
      }
      // An optional budget after a last colon: `name:token:100/60`.
      const last = token.lastIndexOf(':');
      const budgetText = last > 0 ? token.slice(last + 1).trim() : '';
      let budget: RateBudget | undefined;
      if (RATE_BUDGET_SHAPE.test(budgetText)) {
        token = token.slice(0, last).trim();
        budget = parseRateBudget(budgetText);
        if (!budget) {
          problems.push(`API_TOKENS: the budget of "${client}" must be ${RATE_BUDGET_SYNTAX}`);
          return;
        }
      }
      if (!client || !token) {
        problems.push(`API_TOKENS: entry ${index + 1} is not "name:token"`);
      } else if (isReservedClientName(client)) {
        problems.push(
          `API_TOKENS: entry ${index + 1} has the client name "${client}", which the service writes under itself (${RESERVED_CLIENT_NAMES}); give the client another name`,
        );
      } else if (!CLIENT_NAME.test(client)) {
        problems.push(
          `API_TOKENS: entry ${index + 1} has an invalid client name (letters, digits, . _ @ -)`,
        );
      } else if (token.length < 8 || /\s/.test(token)) {
        problems.push(
          `API_TOKENS: the token of "${client}" must be at least 8 characters without blanks`,
        );
      } else if (seen.has(token)) {
        problems.push(
          `API_TOKENS: the token of "${client}" is used twice; each client needs its own`,
        );
      } else {
        seen.add(token);
        tokens.push(budget ? { client, token, budget, scopes } : { client, token, scopes });
      }
    });
  if (problems.length) throw new ConfigValidationError(problems);
  return tokens;
}

/** Reads and validates the environment once. Throws ConfigValidationError naming every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = validateEnvironment(source);
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return {
    env: (env.NODE_ENV as AppConfig['env']) ?? 'development',
    port: env.PORT ?? 3000,
    // This machine only unless asked (decision 0046); the Docker image sets 0.0.0.0.
    host: env.HOST ?? '127.0.0.1',
    db: {
      type: env.DB_TYPE ?? 'sqlite',
      path: env.DB_PATH ?? 'data/covid.sqlite',
      host: env.DB_HOST ?? '127.0.0.1',
      port: env.DB_PORT ?? 3306,
      user: env.DB_USER ?? 'root',
      password: env.DB_PASSWORD ?? '',
      name: env.DB_NAME ?? 'covid',
      timeoutMs: env.DB_TIMEOUT_MS ?? DEFAULT_DB_TIMEOUT_MS,
      poolSize: env.DB_POOL_SIZE,
    },
    apiTokens: parseApiTokens(env.API_TOKENS),
    sync: parseSyncConfig(env.SYNC_SOURCES, env.SYNC_INTERVAL),
    throttle: { limit: env.THROTTLE_LIMIT ?? 100, ttlSeconds: env.THROTTLE_TTL ?? 60 },
    redisUrl: env.REDIS_URL,
    bodyLimitBytes: parseByteSize(env.BODY_LIMIT ?? '5mb'),
    logLevel: env.LOG_LEVEL ?? 'info',
    corsOrigins,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    shutdownTimeoutSeconds: env.SHUTDOWN_TIMEOUT ?? 10,
    tokenRefreshMs: env.TOKEN_REFRESH_MS ?? 1000,
    cacheTtlMs: env.CACHE_TTL_MS ?? 1000,
    httpCache: {
      maxAgeSeconds: env.HTTP_CACHE_MAX_AGE ?? 10,
      staleWhileRevalidateSeconds: env.HTTP_CACHE_SWR ?? 30,
    },
    importLimits: {
      maxBytes: parseByteSize(env.IMPORT_MAX_BYTES ?? DEFAULT_IMPORT_MAX_BYTES),
      maxRows: env.IMPORT_MAX_ROWS ?? DEFAULT_IMPORT_MAX_ROWS,
    },
    syncWorkerMemoryMb: Math.floor(
      parseByteSize(env.SYNC_WORKER_MEMORY ?? DEFAULT_SYNC_WORKER_MEMORY) / 1024 ** 2,
    ),
  };
}
