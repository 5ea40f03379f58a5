import { Injectable } from '@nestjs/common';
import { RateBudget, SCOPES, Scope } from '@app/config';
import { SqlRunner, SqlSession } from '../sql-runner';

/** A token that may currently be accepted (what API instances keep in memory). */
export interface ActiveToken {
  id: number;
  client: string;
  /** SHA-256 of the token, hex. */
  hash: string;
  /** Epoch ms after which the token is refused (a rotation's grace period), or null. */
  expiresAt: number | null;
  /** The client's own rate limit, or null for the default one. */
  budget: RateBudget | null;
  scopes: Scope[];
}

/** A token as `tokens list` shows it: never the token, never its hash. */
export interface TokenSummary {
  id: number;
  client: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  expiresAt: number | null;
  budget: RateBudget | null;
  scopes: Scope[];
}

export interface NewToken {
  /** As the command was given it; stored as the client's first token spells it, if any. */
  client: string;
  hash: string;
  prefix: string;
}

/** What a new token carries: undefined keeps what the client's valid tokens have. */
export interface TokenGrant {
  /** The client's own rate limit (null: the default one). */
  budget?: RateBudget | null;
  scopes?: Scope[];
}

type Row = Record<string, unknown>;

const nullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

const budgetOf = (row: Row): RateBudget | null =>
  row.rate_limit === null || row.rate_limit === undefined
    ? null
    : { limit: Number(row.rate_limit), windowSeconds: Number(row.rate_window_seconds) };

/** A stored scope list; a name this version does not know (written by a newer one) grants nothing. */
const scopesOf = (row: Row): Scope[] => {
  const stored = new Set(typeof row.scopes === 'string' ? row.scopes.split(',') : []);
  return SCOPES.filter((scope) => stored.has(scope));
};

const scopesText = (scopes: Scope[]): string => scopes.join(',');

/**
 * All SQL of the `api_tokens` table, shared by the API (snapshot, usage) and the admin command
 * line (create, rotate, revoke, list). Every change bumps `revision` (one more than the largest),
 * so that `currentRevision()` is a cheap change check.
 */
@Injectable()
export class ApiTokenRepository {
  constructor(private readonly sql: SqlRunner) {}

  private get mysql(): boolean {
    return this.sql.mysql;
  }

  /**
   * Client names match ignoring case, as countries do: "Acme" and "ACME" are one client. MySQL's
   * column collation (utf8mb4_unicode_ci) already does; SQLite compares bytes unless told (names
   * are ASCII, which NOCASE folds exactly).
   */
  private get sameClient(): string {
    return this.mysql ? 'client = ?' : 'client = ? COLLATE NOCASE';
  }

  /** The largest revision: changes whenever a token is created, rotated or revoked. */
  async currentRevision(): Promise<number> {
    const [row] = await this.sql.read<Row>(
      'SELECT COALESCE(MAX(revision), 0) AS revision FROM api_tokens',
    );
    return Number(row.revision);
  }

  /** Tokens neither revoked nor expired at `now`, oldest first. */
  async activeTokens(now: number): Promise<ActiveToken[]> {
    const rows = await this.sql.read<Row>(
      `SELECT id, client, token_hash, expires_at, rate_limit, rate_window_seconds, scopes
       FROM api_tokens WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)
       ORDER BY created_at, id`,
      [now],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      client: String(row.client),
      hash: String(row.token_hash),
      expiresAt: nullableNumber(row.expires_at),
      budget: budgetOf(row),
      scopes: scopesOf(row),
    }));
  }

  async list(): Promise<TokenSummary[]> {
    const rows = await this.sql.read<Row>(
      `SELECT id, client, prefix, created_at, last_used_at, revoked_at, expires_at, rate_limit,
              rate_window_seconds, scopes FROM api_tokens
       ORDER BY client${this.mysql ? '' : ' COLLATE NOCASE'}, created_at, id`,
    );
    return rows.map((row) => ({
      id: Number(row.id),
      client: String(row.client),
      prefix: String(row.prefix),
      createdAt: Number(row.created_at),
      lastUsedAt: nullableNumber(row.last_used_at),
      revokedAt: nullableNumber(row.revoked_at),
      expiresAt: nullableNumber(row.expires_at),
      budget: budgetOf(row),
      scopes: scopesOf(row),
    }));
  }

  /**
   * Adds a token for a client, unless what the client holds forbids it: a `first` token only when
   * the client has no valid one, a `rotation` only when it has one. Returns the client's name as
   * stored and the prefixes of its valid tokens before, or null when refused. The name keeps the
   * spelling of the client's first token, revoked or not (`Partner`, then `rotate PARTNER`: one
   * client, one rate-limit budget, one actor in the history). With `graceUntil`, those tokens expire
   * then. One write transaction: the check, the new token and the old tokens' deadline cannot be
   * interleaved with another command's (two `tokens create` at once issue one token). `grant`:
   * the client's rate limit and scopes, set on all its tokens; what it leaves out is kept as the
   * client's valid tokens have it (a first token: the default budget, no scope).
   */
  async create(
    token: NewToken,
    now: number,
    kind: 'first' | 'rotation',
    graceUntil?: number,
    grant: TokenGrant = {},
  ): Promise<{ client: string; oldPrefixes: string[] } | null> {
    return this.sql.transaction(async (manager) => {
      const revision = await this.nextRevision(manager);
      const [first] = await manager.query<Row[]>(
        `SELECT client FROM api_tokens WHERE ${this.sameClient} ORDER BY created_at, id LIMIT 1`,
        [token.client],
      );
      const client = first ? String(first.client) : token.client;
      const valid = await manager.query<Row[]>(
        `SELECT prefix, rate_limit, rate_window_seconds, scopes FROM api_tokens
         WHERE ${this.sameClient} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)
         ORDER BY created_at, id${this.mysql ? ' FOR UPDATE' : ''}`,
        [token.client, now],
      );
      if ((kind === 'first') !== (valid.length === 0)) return null;
      if (graceUntil !== undefined) {
        await manager.query(
          `UPDATE api_tokens SET expires_at = ?, revision = ?
           WHERE ${this.sameClient} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
          [graceUntil, revision, token.client, graceUntil],
        );
      }
      const budget =
        grant.budget !== undefined ? grant.budget : valid.length ? budgetOf(valid[0]) : null;
      const scopes = grant.scopes ?? (valid.length ? scopesOf(valid[0]) : []);
      await manager.query(
        `INSERT INTO api_tokens (client, token_hash, prefix, created_at, revision, rate_limit,
           rate_window_seconds, scopes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          client,
          token.hash,
          token.prefix,
          now,
          revision,
          budget?.limit ?? null,
          budget?.windowSeconds ?? null,
          scopesText(scopes),
        ],
      );
      if (valid.length && grant.budget !== undefined)
        await this.writeBudget(manager, token.client, grant.budget, revision);
      if (valid.length && grant.scopes !== undefined)
        await this.writeScopes(manager, token.client, grant.scopes, revision);
      return { client, oldPrefixes: valid.map((row) => String(row.prefix)) };
    });
  }

  /** Revokes a client's tokens (those starting with `prefix` only, when given); returns how many. */
  async revoke(client: string, now: number, prefix?: string): Promise<number> {
    return this.sql.transaction(async (manager) => {
      const revision = await this.nextRevision(manager);
      const conditions = [this.sameClient, 'revoked_at IS NULL'];
      const params: unknown[] = [now, revision, client];
      if (prefix !== undefined) {
        conditions.push('prefix = ?');
        params.push(prefix);
      }
      const result = await manager.queryRunner!.query(
        `UPDATE api_tokens SET revoked_at = ?, revision = ? WHERE ${conditions.join(' AND ')}`,
        params,
        true,
      );
      return Number(result.affected ?? 0);
    });
  }

  /**
   * Sets (or, with null, clears) a client's own rate limit on all its tokens not revoked; returns
   * how many tokens carry it (0: the client has none).
   */
  async setBudget(client: string, budget: RateBudget | null): Promise<number> {
    return this.sql.transaction(async (manager) => {
      const revision = await this.nextRevision(manager);
      return this.writeBudget(manager, client, budget, revision);
    });
  }

  /** Sets a client's scopes on all its tokens not revoked; returns how many (0: it has none). */
  async setScopes(client: string, scopes: Scope[]): Promise<number> {
    return this.sql.transaction(async (manager) => {
      const revision = await this.nextRevision(manager);
      return this.writeScopes(manager, client, scopes, revision);
    });
  }

  private async writeScopes(
    manager: SqlSession,
    client: string,
    scopes: Scope[],
    revision: number,
  ): Promise<number> {
    const result = await manager.queryRunner!.query(
      `UPDATE api_tokens SET scopes = ?, revision = ? WHERE ${this.sameClient} AND revoked_at IS NULL`,
      [scopesText(scopes), revision, client],
      true,
    );
    return Number(result.affected ?? 0);
  }

  private async writeBudget(
    manager: SqlSession,
    client: string,
    budget: RateBudget | null,
    revision: number,
  ): Promise<number> {
    const result = await manager.queryRunner!.query(
      `UPDATE api_tokens SET rate_limit = ?, rate_window_seconds = ?, revision = ?
       WHERE ${this.sameClient} AND revoked_at IS NULL`,
      [budget?.limit ?? null, budget?.windowSeconds ?? null, revision, client],
      true,
    );
    return Number(result.affected ?? 0);
  }

  /** Records when tokens were last used (a batch; never lowers a value, never bumps `revision`). */
  async recordUsage(usage: Map<number, number>): Promise<void> {
    if (usage.size === 0) return;
    await this.sql.transaction(async (manager) => {
      for (const [id, at] of usage) {
        await manager.query(
          'UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
          [at, id, at],
        );
      }
    });
  }

  /** One more than the largest revision; on MySQL the read locks the index end until commit. */
  private async nextRevision(manager: SqlSession): Promise<number> {
    const lock = this.mysql ? ' FOR UPDATE' : '';
    const [row] = await manager.query<Row[]>(
      `SELECT COALESCE(MAX(revision), 0) + 1 AS revision FROM api_tokens${lock}`,
    );
    return Number(row.revision);
  }
}
