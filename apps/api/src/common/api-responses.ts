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

export class CreatedAck extends WriteAck {
  @ApiProperty({ example: 1234, type: 'integer' })
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

const error = (status: number, description: string, example: string) =>
  ApiResponse({ status, description, type: ErrorResponse, example: { error: example } });

/** Errors that any route may answer. */
export const ApiCommonErrors = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiResponse({
      status: 429,
      description: 'Rate limit exceeded; `Retry-After` gives the seconds to wait',
      type: ErrorResponse,
      example: { error: MESSAGES.tooManyRequests },
    }),
    error(503, 'Database unreachable', MESSAGES.databaseUnavailable),
    error(500, 'Unexpected error (never a stack trace)', MESSAGES.internal),
  );

/** Errors of routes that need a token. */
export const ApiTokenErrors = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiResponse({
      status: 401,
      description: `No token (\`${MESSAGES.noToken}\`) or an unknown or revoked one (\`${MESSAGES.invalidToken}\`); with \`WWW-Authenticate: Bearer\``,
      type: ErrorResponse,
      example: { error: MESSAGES.noToken },
    }),
  );

export const ApiBadRequest = (description = 'Invalid input; `details` lists each problem') =>
  ApiResponse({ status: 400, description, type: ErrorResponse });

export const ApiNotFound = (example: string) => error(404, 'Not found', example);
