import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { MESSAGES } from '@app/common';

export class ErrorResponse {
  @ApiProperty({ example: MESSAGES.invalidBody })
  error: string;

  @ApiPropertyOptional({ type: [String], example: ['date : champ obligatoire'] })
  details?: string[];
}

export class WriteAck {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: MESSAGES.updated })
  message: string;
}

export class CreatedAck {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: MESSAGES.created })
  message: string;

  @ApiProperty({ example: 225172, type: 'integer' })
  id: number;
}

export class BulkAck {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: 2, type: 'integer', description: 'Records that did not exist' })
  inserted: number;

  @ApiProperty({ example: 1, type: 'integer', description: 'Existing records replaced' })
  updated: number;
}

/** The `Retry-After` header of an answer that asks the client to come back. */
export const retryAfterHeader = (description: string, example: number) => ({
  'Retry-After': { description, schema: { type: 'integer', minimum: 1, example } },
});

/** Named examples of error bodies, from `{ name: [summary, message] }`. */
export const errorExamples = (examples: Record<string, [summary: string, message: string]>) =>
  Object.fromEntries(
    Object.entries(examples).map(([name, [summary, error]]) => [
      name,
      { summary, value: { error } },
    ]),
  );

const error = (status: number, description: string, example: string) =>
  ApiResponse({ status, description, type: ErrorResponse, example: { error: example } });

/** Errors that any route may answer. */
export const ApiCommonErrors = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiResponse({
      status: 429,
      description:
        "Rate limit of the client exceeded: the client's own budget when an administrator set " +
        'one (`tokens limit`), else THROTTLE_LIMIT requests per THROTTLE_TTL seconds',
      type: ErrorResponse,
      example: { error: MESSAGES.tooManyRequests },
      headers: retryAfterHeader('Seconds to wait before the next request (at least 1)', 42),
    }),
    error(503, 'Database unreachable (retry later)', MESSAGES.databaseUnavailable),
    error(500, 'Unexpected error (never a stack trace or SQL text)', MESSAGES.internal),
  );

/** Errors of routes that need a token. */
export const ApiTokenErrors = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiResponse({
      status: 401,
      description: 'No token, or an unknown or revoked one',
      type: ErrorResponse,
      headers: {
        'WWW-Authenticate': { description: 'Always `Bearer`', schema: { type: 'string' } },
      },
      examples: errorExamples({
        noToken: ['No Authorization header, another scheme or an empty token', MESSAGES.noToken],
        invalidToken: ['Unknown or revoked token', MESSAGES.invalidToken],
      }),
    }),
  );

export const ApiBadRequest = (
  description = 'Invalid input; `details` lists each problem',
  example: { error: string; details: string[] } = {
    error: MESSAGES.invalidBody,
    details: ['date : champ obligatoire', 'total_cases : doit être un entier de 0 à 1000000000000'],
  },
) => ApiResponse({ status: 400, description, type: ErrorResponse, example });

export const ApiNotFound = (example: string) => error(404, 'Not found', example);

export const ApiConflict = () =>
  error(409, 'A record for that country and date already exists', MESSAGES.duplicateRecord);

/** Errors of routes that take a JSON body (besides 400). */
export const ApiBodyErrors = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    error(413, 'Body larger than BODY_LIMIT', MESSAGES.payloadTooLarge),
    error(
      415,
      'Body that is not JSON (Content-Type other than application/json)',
      MESSAGES.unsupportedMediaType,
    ),
  );
