import { HttpException, HttpStatus } from '@nestjs/common';

/** The one error body of the API: `{ error, details? }` (details: one line per problem, on 400). */
export interface ErrorBody {
  error: string;
  details?: string[];
}

export class ApiError extends HttpException {
  constructor(status: HttpStatus, message: string, details?: string[]) {
    super(details ? { error: message, details } : { error: message }, status);
  }

  static badRequest(message: string, details: string[]): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, message, details);
  }

  static notFound(message: string): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, message);
  }

  static conflict(message: string): ApiError {
    return new ApiError(HttpStatus.CONFLICT, message);
  }
}
