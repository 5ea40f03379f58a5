import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiResponse } from '@nestjs/swagger';
import { MESSAGES } from '@app/common';
import { Scope } from '@app/config';
import { ErrorResponse } from '../common/api-responses';

export const REQUIRED_SCOPES_KEY = 'requiredScopes';

/**
 * The scopes a token route needs, all of them (the one mechanism beside `@Public()`): the global
 * `TokenGuard` answers 403 to a token without them. A route with neither refuses to start
 * (`ScopeDeclarationCheck`). Also says so in the OpenAPI document (`x-required-scopes`, the 403).
 */
export const RequireScope = (...scopes: [Scope, ...Scope[]]): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPES_KEY, scopes),
    ApiBearerAuth(),
    ApiExtension('x-required-scopes', scopes),
    ApiResponse({
      status: 403,
      description: `The token lacks the scope ${scopes.map((s) => `\`${s}\``).join(' and ')}`,
      type: ErrorResponse,
      example: { error: MESSAGES.insufficientScope },
      headers: {
        'WWW-Authenticate': {
          description: `\`Bearer error="insufficient_scope", scope="${scopes.join(' ')}"\``,
          schema: { type: 'string' },
        },
      },
    }),
  );
