/** A client's own rate limit: `limit` requests per window of `windowSeconds`. */
export interface RateBudget {
  limit: number;
  windowSeconds: number;
}

const WINDOW_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const LONGEST_WINDOW_SECONDS = 7 * 86400;

/** How a budget is written, for messages. */
export const RATE_BUDGET_SYNTAX =
  '<requests>/<window>, the window in seconds or with a unit (100/60, 500/1m, 10000/1h)';

/** Text that is meant as a budget (and is then refused if its numbers are out of range). */
export const RATE_BUDGET_SHAPE = /^\d+\/\d+[smhd]?$/;

/** `100/60`, `500/1m`, `10000/1h`: 1 to 10^9 requests per 1 second to 7 days; else undefined. */
export function parseRateBudget(text: string): RateBudget | undefined {
  const match = /^(\d{1,10})\/(\d{1,7})([smhd])?$/.exec(text.trim());
  if (!match) return undefined;
  const limit = Number(match[1]);
  const windowSeconds = Number(match[2]) * WINDOW_UNITS[match[3] ?? 's'];
  if (limit < 1 || limit > 1e9 || windowSeconds < 1 || windowSeconds > LONGEST_WINDOW_SECONDS) {
    return undefined;
  }
  return { limit, windowSeconds };
}

export function formatRateBudget(budget: RateBudget): string {
  return `${budget.limit}/${budget.windowSeconds}s`;
}
