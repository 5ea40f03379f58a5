import { ApiError } from './errors';

/** Statuses that say "later": the rate limit, and the database briefly out of reach. */
const RETRIED = new Set([429, 503]);

export interface RetryOptions {
  /** Further attempts after a 429 or 503 (default 5). */
  retries: number;
  /** The longest wait before one attempt, whatever `Retry-After` says (default 60 s). */
  maxWaitMs: number;
  fetch: (request: Request) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
}

/** Milliseconds to wait from a `Retry-After` value: seconds or an HTTP date. */
export function retryDelayMs(value: string | null, now = Date.now()): number {
  if (!value) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now);
}

/**
 * A `fetch` for openapi-fetch that asks again after a 429 or 503, waiting `Retry-After` (bounded
 * by `maxWaitMs`), `retries` times at most; an unreachable API becomes an `ApiError`.
 */
export function retryingFetch(options: RetryOptions): (request: Request) => Promise<Response> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((done) => setTimeout(done, ms)));
  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await options.fetch(request.clone());
      } catch (error) {
        const reason = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
        throw new ApiError(null, `the API could not be reached: ${reason}`);
      }
      if (!RETRIED.has(response.status) || attempt >= options.retries) return response;
      await response.body?.cancel();
      await sleep(Math.min(retryDelayMs(response.headers.get('Retry-After')), options.maxWaitMs));
    }
  };
}
