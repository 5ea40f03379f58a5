import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { AppConfig, InjectConfig } from '@app/config';
import { bearerToken } from './bearer-token';
import { hashToken } from './constant-time';

/** Who sent a request: nobody (no token), an unknown token, or a known client. */
export type Caller =
  { kind: 'anonymous' } | { kind: 'invalid' } | { kind: 'client'; client: string };

interface KnownToken {
  client: string;
  hash: Buffer;
}

const CALLER = Symbol('caller');

interface RequestLike {
  headers: Record<string, string | string[] | undefined>;
  [CALLER]?: Caller;
}

/**
 * Resolves bearer tokens to clients from memory (no database round trip per request). Tokens are
 * kept only as SHA-256 hashes and compared with a constant-time comparison.
 */
@Injectable()
export class TokenService {
  private byHash = new Map<string, KnownToken>();

  constructor(@InjectConfig() config: AppConfig) {
    for (const { client, token } of config.apiTokens) {
      const hash = hashToken(token);
      this.byHash.set(hash.toString('hex'), { client, hash });
    }
  }

  /** The caller of a request, computed once and remembered on the request. */
  identify(request: RequestLike): Caller {
    const known = request[CALLER];
    if (known) return known;
    const caller = this.resolve(bearerToken(request.headers.authorization));
    request[CALLER] = caller;
    return caller;
  }

  resolve(token: string | undefined): Caller {
    if (token === undefined) return { kind: 'anonymous' };
    const hash = hashToken(token);
    const known = this.byHash.get(hash.toString('hex'));
    if (!known || !timingSafeEqual(known.hash, hash)) return { kind: 'invalid' };
    return { kind: 'client', client: known.client };
  }
}
