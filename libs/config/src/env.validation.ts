import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
  ValidateBy,
  validateSync,
} from 'class-validator';
import { trustProxyProblem } from './trust-proxy';

export const DB_TYPES = ['sqlite', 'mysql'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A `TRUST_PROXY` value Fastify can take safely; the message says why another one is refused. */
function IsTrustProxy(): PropertyDecorator {
  return ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && !trustProxyProblem(value),
      defaultMessage: (args) => trustProxyProblem(String(args?.value)) ?? 'TRUST_PROXY: invalid',
    },
  });
}

const SIZE = /^(\d+)\s*(b|kb|mb|gb)?$/i;
const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `5mb`, `512kb`, `1gb` or a number of bytes, in bytes. */
export function parseByteSize(value: string): number {
  const match = SIZE.exec(value.trim());
  if (!match) throw new Error(`not a size: ${value}`);
  return Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()];
}

/** A size (`parseByteSize`) of at least `min` bytes; the message gives the variable's syntax. */
function IsSizeAtLeast(min: number, shown: string): PropertyDecorator {
  return ValidateBy({
    name: 'isSizeAtLeast',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && SIZE.test(value.trim()) && parseByteSize(value) >= min,
      defaultMessage: (args) =>
        `${args?.property} must be a size such as 512mb, 1gb or a number of bytes, at least ${shown}`,
    },
  });
}

/**
 * Raw environment variables as the contract names them. Every field is validated once, at
 * start-up; a bad value stops the process with a message that names the variable.
 */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  HOST?: string;

  @ValidateIf(
    (env: EnvironmentVariables) => env.NODE_ENV === 'production' || env.DB_TYPE !== undefined,
  )
  @IsIn(DB_TYPES, {
    message: 'DB_TYPE must be "sqlite" or "mysql" (required when NODE_ENV=production)',
  })
  DB_TYPE?: (typeof DB_TYPES)[number];

  @IsOptional()
  @IsString()
  @MinLength(1)
  DB_PATH?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  DB_HOST?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  DB_PORT?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  DB_USER?: string;

  @IsOptional()
  @IsString()
  DB_PASSWORD?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9_$]{1,64}$/, { message: 'DB_NAME must be 1 to 64 letters, digits, _ or $' })
  DB_NAME?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DB_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  DB_POOL_SIZE?: number;

  @IsOptional()
  @IsString()
  API_TOKENS?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  THROTTLE_LIMIT?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  THROTTLE_TTL?: number;

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @Matches(/^\d+\s*(b|kb|mb|gb)?$/i, {
    message: 'BODY_LIMIT must be a size such as 5mb, 512kb or 1048576',
  })
  BODY_LIMIT?: string;

  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL?: (typeof LOG_LEVELS)[number];

  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  /** `false`, a hop count or the proxies' addresses (parsed by `parseTrustProxy`); never `true`. */
  @IsOptional()
  @IsTrustProxy()
  TRUST_PROXY?: string;

  /** Seconds a shutdown (SIGTERM, SIGINT) may take before the process is forced to exit. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(600)
  SHUTDOWN_TIMEOUT?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60000)
  TOKEN_REFRESH_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  CACHE_TTL_MS?: number;

  /** `Cache-Control: max-age` of the public routes' answers, in seconds (0: revalidate every time). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86_400)
  HTTP_CACHE_MAX_AGE?: number;

  /** `Cache-Control: stale-while-revalidate` of the public routes' answers, in seconds. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86_400)
  HTTP_CACHE_SWR?: number;

  /** Scheduled sync: `covid=<url>,mpox=<url>` (parsed by `parseSyncConfig`). */
  @IsOptional()
  @IsString()
  SYNC_SOURCES?: string;

  @IsOptional()
  @IsString()
  SYNC_INTERVAL?: string;

  /** Largest text an import reads, once gunzipped (`1gb`...): past it the import stops. */
  @IsOptional()
  @IsSizeAtLeast(1024, '1kb')
  IMPORT_MAX_BYTES?: string;

  /** Most data rows an import reads: past them the import stops. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  IMPORT_MAX_ROWS?: number;

  /** The sync worker thread's heap limit (`resourceLimits.maxOldGenerationSizeMb`). */
  @IsOptional()
  @IsSizeAtLeast(32 * 1024 ** 2, '32mb')
  SYNC_WORKER_MEMORY?: string;
}

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigValidationError';
  }
}

/** Validates the raw variables; empty strings count as "not set". */
export function validateEnvironment(env: NodeJS.ProcessEnv): EnvironmentVariables {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = plainToInstance(EnvironmentVariables, raw);
  const errors = validateSync(parsed, { skipMissingProperties: false });
  // One line per variable: the first rule it breaks (class-validator lists them last-first).
  const problems = errors.map((e) => {
    const messages = Object.values(e.constraints ?? {});
    const message = messages[messages.length - 1] ?? 'invalid value';
    return message.startsWith(e.property) ? message : `${e.property}: ${message}`;
  });
  if (problems.length) throw new ConfigValidationError(problems);
  return parsed;
}
