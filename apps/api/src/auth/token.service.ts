import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { AppConfig, InjectConfig, RateBudget, Scope } from '@app/config';
import { ApiTokenRepository } from '@app/database';
import { CHANGE_CHANNELS, ChangeListener, RedisConnections } from '@app/messaging';
import { bearerToken } from './bearer-token';
import { hashToken } from './constant-time';

/** Who sent a request: nobody (no token), an unknown token, or a known client. */
export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'invalid' }
  /** `budget`: the client's own rate limit, when it has one; `scopes`: what it may do. */
  | { kind: 'client'; client: string; budget?: RateBudget; scopes: ReadonlySet<Scope> };

interface KnownToken {
  client: string;
  hash: Buffer;
  budget?: RateBudget;
  scopes: ReadonlySet<Scope>;
  /** Database tokens only: row id (for `last_used_at`) and the end of a rotation's grace period. */
  id?: number;
  expiresAt?: number | null;
  /** `API_TOKENS` tokens only: the client's name as its first entry spells it. */
  staticName?: string;
}

const CALLER = Symbol('caller');

/** `last_used_at` is written in batches, at most this often (and when the app stops). */
export const USAGE_FLUSH_MS = 10_000;

/** An unknown token makes the instance look at the token store again, at most this often. */
export const UNKNOWN_TOKEN_RECHECK_MS = 100;

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  [CALLER]?: Caller;
}

/**
 * Resolves bearer tokens to clients from memory (no database round trip per request): the
 * `API_TOKENS` ones, and a snapshot of the database's valid tokens. Each instance checks the
 * tokens' revision every `TOKEN_REFRESH_MS` (one tiny query) and reloads them when it changed;
 * with `REDIS_URL` set, the admin command line also announces changes, and instances reload at
 * once. Tokens are kept only as SHA-256 hashes and compared with a constant-time comparison.
 */
@Injectable()
export class TokenService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Tokens');
  private readonly staticTokens = new Map<string, KnownToken>();
  /** The first spelling of each `API_TOKENS` client, by its name in lower case. */
  private readonly staticNames = new Map<string, string>();
  private databaseTokens = new Map<string, KnownToken>();
  private revision = -1;
  /** When the last look at the token store began (epoch ms). */
  private checkedAt = 0;
  private refreshing?: Promise<void>;
  private refreshFailing = false;
  private usage = new Map<number, number>();
  private timers: NodeJS.Timeout[] = [];
  private listener?: ChangeListener;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly repository: ApiTokenRepository,
    private readonly redis: RedisConnections,
  ) {
    for (const { client, token, budget, scopes } of config.apiTokens) {
      const hash = hashToken(token);
      this.staticTokens.set(hash.toString('hex'), {
        client: spelling(this.staticNames, client),
        staticName: spelling(this.staticNames, client),
        hash,
        budget,
        scopes: new Set(scopes),
      });
    }
  }

  async onModuleInit(): Promise<void> {
    await this.refresh();
    this.timers.push(
      setInterval(() => void this.refresh(), this.config.tokenRefreshMs).unref(),
      setInterval(() => void this.flushUsage(), USAGE_FLUSH_MS).unref(),
    );
    this.listener = this.redis.listen(CHANGE_CHANNELS.tokens, () => void this.refresh());
  }

  async onModuleDestroy(): Promise<void> {
    this.timers.forEach(clearInterval);
    this.listener?.stop();
    await this.refreshing;
    await this.flushUsage();
  }

  /** The caller that `identify` remembered on a request (the guards have run), if any. */
  static identified(request: object): Caller | undefined {
    return (request as RequestLike)[CALLER];
  }

  /** The caller of a request, computed once and remembered on the request. */
  identify(request: RequestLike): Caller {
    const known = request[CALLER];
    if (known) return known;
    const caller = this.resolve(bearerToken(request.headers.authorization));
    request[CALLER] = caller;
    return caller;
  }

  /**
   * `identify`, but an unknown token first makes the instance look at the token store once more
   * (shared, at most every `UNKNOWN_TOKEN_RECHECK_MS`): a token the command line has just created
   * works at once, without Redis and before the next periodic check.
   */
  async identifyRechecked(request: RequestLike): Promise<Caller> {
    const caller = this.identify(request);
    if (caller.kind !== 'invalid' || Date.now() - this.checkedAt < UNKNOWN_TOKEN_RECHECK_MS) {
      return caller;
    }
    await this.refresh();
    delete request[CALLER];
    return this.identify(request);
  }

  resolve(token: string | undefined): Caller {
    if (token === undefined) return { kind: 'anonymous' };
    const hash = hashToken(token);
    const hex = hash.toString('hex');
    const known = this.staticTokens.get(hex) ?? this.databaseTokens.get(hex);
    if (!known || !timingSafeEqual(known.hash, hash)) return { kind: 'invalid' };
    const now = Date.now();
    if (known.expiresAt != null && now >= known.expiresAt) return { kind: 'invalid' };
    if (known.id !== undefined) this.usage.set(known.id, now);
    return { kind: 'client', client: known.client, budget: known.budget, scopes: known.scopes };
  }

  /**
   * Reloads the database tokens when their revision changed. Concurrent calls share one run; on
   * a database error the last snapshot stays in force (and the next check retries).
   */
  refresh(): Promise<void> {
    this.refreshing ??= this.reloadIfChanged().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async reloadIfChanged(): Promise<void> {
    this.checkedAt = Date.now();
    try {
      const revision = await this.repository.currentRevision();
      if (revision !== this.revision) {
        const tokens = await this.repository.activeTokens(Date.now());
        const names = new Map<string, string>();
        this.databaseTokens = new Map(
          tokens.map((t) => [
            t.hash,
            {
              client: spelling(names, t.client),
              hash: Buffer.from(t.hash, 'hex'),
              id: t.id,
              expiresAt: t.expiresAt,
              budget: t.budget ?? undefined,
              scopes: new Set(t.scopes),
            },
          ]),
        );
        for (const known of this.staticTokens.values()) {
          known.client = spelling(names, known.staticName ?? known.client);
        }
        this.revision = revision;
      }
      if (this.refreshFailing) this.logger.log('Token store reachable again');
      this.refreshFailing = false;
    } catch (error) {
      if (!this.refreshFailing) {
        this.logger.warn(`Could not check the tokens, keeping the last known ones: ${name(error)}`);
      }
      this.refreshFailing = true;
    }
  }

  /** Writes the pending `last_used_at` times in one batch. */
  async flushUsage(): Promise<void> {
    if (this.usage.size === 0) return;
    const batch = this.usage;
    this.usage = new Map();
    try {
      await this.repository.recordUsage(batch);
    } catch (error) {
      for (const [id, at] of batch) if ((this.usage.get(id) ?? 0) < at) this.usage.set(id, at);
      this.logger.warn(`Could not record token usage, will retry: ${name(error)}`);
    }
  }
}

function name(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}

/**
 * A client's one spelling: names match ignoring case, so `Partner` and `PARTNER` are one client,
 * with one rate-limit budget and one actor in the history. The first spelling met wins: the
 * database's (where the command line keeps one per client), else `API_TOKENS`' first entry.
 */
function spelling(names: Map<string, string>, client: string): string {
  const key = client.toLowerCase();
  const known = names.get(key);
  if (known !== undefined) return known;
  names.set(key, client);
  return client;
}
