import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ChangeOrigin } from '@app/diseases';
import { TokenService } from './token.service';

/**
 * The origin of a write, for the code that performs it: the name of the token's client (which the
 * global `TokenGuard` identified before the handler runs) and the request's id.
 */
export const WriteOrigin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ChangeOrigin => {
    const request = context.switchToHttp().getRequest<{ id: string }>();
    const caller = TokenService.identified(request);
    // Unreachable on a scoped route (the guard refused anonymous callers); named, never guessed.
    const actor = caller?.kind === 'client' ? caller.client : 'unknown';
    return { actor, requestId: request.id };
  },
);
