import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, MESSAGES } from '@app/common';
import { IS_PUBLIC_KEY } from './public.decorator';
import { TokenService } from './token.service';

interface HeaderSetter {
  header(name: string, value: string): unknown;
}

/** Global guard: every route needs a valid bearer token unless it is marked `@Public()`. */
@Injectable()
export class TokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
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
