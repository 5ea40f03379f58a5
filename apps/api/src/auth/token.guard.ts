import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, MESSAGES } from '@app/common';
import { Scope } from '@app/config';
import { RouteMemo } from '../route-metadata/route-memo';
import { IS_PUBLIC_KEY } from './public.decorator';
import { REQUIRED_SCOPES_KEY } from './require-scope.decorator';
import { TokenService } from './token.service';

interface HeaderSetter {
  header(name: string, value: string): unknown;
}

/**
 * Who may call a route: anyone, token holders with every one of `scopes`, or nobody (a route that
 * declares neither, which `ScopeDeclarationCheck` keeps from starting: denied all the same).
 */
type Access = { public: true } | { public: false; scopes: readonly Scope[] | null };

/**
 * Global guard: every route needs a valid bearer token (else 401) carrying the scopes the route
 * declares with `@RequireScope()` (else 403), unless it is marked `@Public()`.
 */
@Injectable()
export class TokenGuard implements CanActivate {
  /** `@Public()` and `@RequireScope()` of each route, read once. */
  private readonly access = new RouteMemo((handler, classRef): Access => {
    const targets = [handler, classRef];
    if (this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, targets) === true) {
      return { public: true };
    }
    const scopes = this.reflector.getAllAndOverride<Scope[] | undefined>(
      REQUIRED_SCOPES_KEY,
      targets,
    );
    return { public: false, scopes: scopes ?? null };
  });

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.access.get(context);
    if (access.public) return true;
    const http = context.switchToHttp();
    const caller = await this.tokens.identifyRechecked(http.getRequest());
    if (caller.kind !== 'client') {
      http.getResponse<HeaderSetter>().header('WWW-Authenticate', 'Bearer');
      throw new ApiError(
        HttpStatus.UNAUTHORIZED,
        caller.kind === 'anonymous' ? MESSAGES.noToken : MESSAGES.invalidToken,
      );
    }
    const { scopes } = access;
    if (scopes !== null && scopes.every((scope) => caller.scopes.has(scope))) return true;
    // RFC 6750 §3.1: the scopes the route needs, space-separated.
    const needed = scopes === null ? '' : `, scope="${scopes.join(' ')}"`;
    http
      .getResponse<HeaderSetter>()
      .header('WWW-Authenticate', `Bearer error="insufficient_scope"${needed}`);
    throw new ApiError(HttpStatus.FORBIDDEN, MESSAGES.insufficientScope);
  }
}
