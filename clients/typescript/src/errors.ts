/**
 * The one error the client throws: the API's status and message (in French) and, for a 400, its
 * `details` lines; `status` is null when the API could not be reached.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
    readonly details: string[] = [],
  ) {
    super(status === null ? message : `${status}: ${message}`);
    this.name = 'ApiError';
    this.apiMessage = message;
  }

  /** The API's `error` text alone. */
  readonly apiMessage: string;
}

/** The error of a refused answer: its `{ error, details }` body when it has one. */
export function errorOf(status: number, body: unknown): ApiError {
  const { error, details } = (body ?? {}) as { error?: unknown; details?: unknown };
  return typeof error === 'string'
    ? new ApiError(status, error, Array.isArray(details) ? details.map(String) : [])
    : new ApiError(status, `HTTP ${status}`);
}
