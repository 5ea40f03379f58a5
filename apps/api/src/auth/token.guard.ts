import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, MESSAGES } from '@app/common';
import { RouteMemo } from '../common/route-memo';
import { IS_PUBLIC_KEY } from './public.decorator';
import { TokenService } from './token.service';

interface HeaderSetter {
  header(name: string, value: string): unknown;
}

/** Global guard: every route needs a valid bearer token unless it is marked `@Public()`. */
@Injectable()
export class TokenGuard implements CanActivate {
  /** `@Public()` of each route, read once. */
  private readonly isPublic = new RouteMemo(
    (handler, classRef) =>
      this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [handler, classRef]) ===
      true,
  );

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.isPublic.get(context)) return true;
    const http = context.switchToHttp();
    const caller = this.tokens.identify(http.getRequest());
    if (caller.kind === 'client') return true;
    http.getResponse<HeaderSetter>().header('WWW-Authenticate', 'Bearer');
    throw new ApiError(
      HttpStatus.UNAUTHORIZED,
      caller.kind === 'anonymous' ? MESSAGES.noToken : MESSAGES.invalidToken,
    );
  }
}
