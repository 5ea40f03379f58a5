import { Injectable } from '@nestjs/common';
import {
  AppConfig,
  CLIENT_NAME,
  InjectConfig,
  RESERVED_CLIENT_NAMES,
  RateBudget,
  Scope,
  isReservedClientName,
} from '@app/config';
import { generateToken } from '@app/common';
import { ApiTokenRepository, TokenGrant, TokenSummary } from '@app/database';
import { CHANGE_CHANNELS, ChangeAnnouncer } from '@app/messaging';
import { CliError } from '../cli-error';

export type TokenState = 'valid' | 'expiring' | 'expired' | 'revoked';

export interface TokenListing extends TokenSummary {
  state: TokenState;
  /** A client name the service writes under itself, issued before such names were refused. */
  reserved: boolean;
}

/** Issues, rotates, revokes and lists client tokens (the token itself is shown once, never stored). */
@Injectable()
export class TokenAdminService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** A first token for a client that has no valid one, with its scopes and own rate limit. */
  async create(
    client: string,
    scopes: Scope[],
    budget?: RateBudget,
  ): Promise<{ client: string; token: string; prefix: string }> {
    checkNewToken(client);
    const issued = await this.issue(client, 'first', undefined, { budget: budget ?? null, scopes });
    if (!issued) {
      throw new CliError(
        `client "${client}" already has a valid token: use "tokens rotate ${client}" to issue another`,
      );
    }
    return issued;
  }

  /**
   * A second token for a client; the old ones stay valid until revoked, or until `graceMs` from
   * now when given. The client keeps its rate limit and scopes unless `grant` replaces them.
   */
  async rotate(
    client: string,
    graceMs?: number,
    grant: TokenGrant = {},
  ): Promise<{
    client: string;
    token: string;
    prefix: string;
    oldPrefixes: string[];
    graceUntil?: number;
  }> {
    checkNewToken(client);
    const graceUntil = graceMs === undefined ? undefined : Date.now() + graceMs;
    const issued = await this.issue(client, 'rotation', graceUntil, grant);
    if (!issued) {
      throw new CliError(
        `client "${client}" has no valid token to rotate: use "tokens create ${client}"`,
      );
    }
    return { ...issued, graceUntil };
  }

  /** Revokes all of a client's tokens, or those with one prefix; returns how many. */
  async revoke(client: string, prefix?: string): Promise<number> {
    checkClient(client);
    if (prefix !== undefined && !/^\S{4,16}$/.test(prefix)) {
      throw CliError.usage(
        `--token-prefix must be the prefix shown by "tokens list", not "${prefix}"`,
      );
    }
    const count = await this.tokens.revoke(client, Date.now(), prefix);
    if (count === 0) {
      const which = prefix === undefined ? '' : ` with prefix ${prefix}`;
      throw new CliError(`client "${client}" has no token${which} left to revoke`);
    }
    await this.announce();
    return count;
  }

  /** Sets (null: clears) a client's own rate limit on every instance; refused without a token. */
  async setBudget(client: string, budget: RateBudget | null): Promise<void> {
    checkClient(client);
    if ((await this.tokens.setBudget(client, budget)) === 0) {
      throw new CliError(`client "${client}" has no token: use "tokens create ${client}" first`);
    }
    await this.announce();
  }

  /** Sets what a client may do, on every instance; refused when the client has no token. */
  async setScopes(client: string, scopes: Scope[]): Promise<void> {
    checkClient(client);
    if ((await this.tokens.setScopes(client, scopes)) === 0) {
      throw new CliError(`client "${client}" has no token: use "tokens create ${client}" first`);
    }
    await this.announce();
  }

  async list(): Promise<TokenListing[]> {
    const now = Date.now();
    return (await this.tokens.list()).map((t) => ({
      ...t,
      state: stateOf(t, now),
      reserved: isReservedClientName(t.client),
    }));
  }

  /**
   * Null when the client's tokens forbid it (see `ApiTokenRepository.create`); `client`: the name
   * as stored, the spelling of the client's first token.
   */
  private async issue(
    client: string,
    kind: 'first' | 'rotation',
    graceUntil: number | undefined,
    grant: TokenGrant,
  ): Promise<{ client: string; token: string; prefix: string; oldPrefixes: string[] } | null> {
    const { token, prefix, hash } = generateToken();
    const stored = await this.tokens.create(
      { client, hash, prefix },
      Date.now(),
      kind,
      graceUntil,
      grant,
    );
    if (stored === null) return null;
    await this.announce();
    return { ...stored, token, prefix };
  }

  /** Other API instances reload at once when Redis is configured (else within their interval). */
  private announce(): Promise<void> {
    return new ChangeAnnouncer(this.config.redisUrl).announce(
      CHANGE_CHANNELS.tokens,
      String(Date.now()),
    );
  }
}

export function stateOf(token: TokenSummary, now: number): TokenState {
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt === null) return 'valid';
  return token.expiresAt > now ? 'expiring' : 'expired';
}

export function checkClient(client: string): void {
  if (!CLIENT_NAME.test(client)) {
    throw CliError.usage(
      `invalid client name "${client}": 1 to 64 letters, digits, ".", "_", "@" or "-"`,
    );
  }
}

/**
 * A client a new token may be issued to: a valid name, and none the service writes under itself.
 * A client that already holds such a name keeps its tokens (revoke, scope and limit still apply).
 */
export function checkNewToken(client: string): void {
  if (isReservedClientName(client)) {
    throw CliError.usage(
      `client name "${client}" is reserved: the service writes its own history under ${RESERVED_CLIENT_NAMES}, case ignored`,
    );
  }
  checkClient(client);
}
