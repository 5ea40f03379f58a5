import { MESSAGES } from '@app/common';

/** One benchmarked route. Paths include the `/api` prefix. */
export interface BenchRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** Sends the bench client's bearer token. */
  auth: boolean;
  /** Minimum API/baseline requests-per-second ratio (issue 5). */
  minRatio: number;
  /** Maximum p99 latency in ms, when the issue sets one. */
  maxP99Ms?: number;
}

/** One recorded answer of the API, replayed byte for byte by the baseline server. */
export interface RecordedAnswer {
  method: string;
  /** Path with query string; POST answers match on the path alone. */
  url: string;
  status: number;
  contentType: string;
  body: string;
  /**
   * The API's other headers (all but those Node writes itself: type, length, date, connection; and
   * the request id, new on each answer), replayed by the reference servers of
   * `bench:compare --reference`, never by the baseline.
   */
  headers: Record<string, string>;
}

export const BENCH_CLIENT = 'bench';
export const BENCH_TOKEN = 'bench-token-0123456789abcdef';

export function readRoutes(country: string): BenchRoute[] {
  const publicRoute = (name: string, path: string): BenchRoute => ({
    name,
    method: 'GET',
    path,
    auth: false,
    minRatio: 0.5,
    maxP99Ms: 25,
  });
  return [
    publicRoute('covid latest', '/api/covid/public/latest'),
    publicRoute('covid totals', '/api/covid/public/totals'),
    publicRoute(
      `covid country ${country}`,
      `/api/covid/public/country/${encodeURIComponent(country)}`,
    ),
    publicRoute('mpox summary', '/api/mpox/public/summary'),
    {
      name: `covid data ${country} x100`,
      method: 'GET',
      path: `/api/covid/data?country=${encodeURIComponent(country)}&limit=100`,
      auth: true,
      minRatio: 0.3,
    },
  ];
}

export const CREATE_PATH = '/api/covid/data';
export const DUMP_PATH = '/api/covid/data?limit=100000000';
/** The same full dump as CSV. */
export const CSV_DUMP_PATH = `${DUMP_PATH}&format=csv`;

/** What the API answers to a successful POST (the baseline replays it). */
export function createdAnswer(): RecordedAnswer {
  return {
    method: 'POST',
    url: CREATE_PATH,
    status: 201,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ success: true, message: MESSAGES.created, id: 225172 }),
    headers: {},
  };
}

const COUNTRIES_PER_DAY = 1000;
const FIRST_DAY = Date.UTC(1900, 0, 1);

/**
 * Bodies of POST /covid/data, each with a (country, date) never used before in this run:
 * 1,000 invented countries per day from 1900-01-01 on (the real data starts in 2020).
 */
export function createBodies(): () => string {
  let next = 0;
  return () => {
    const n = next++;
    const date = new Date(FIRST_DAY + Math.floor(n / COUNTRIES_PER_DAY) * 86_400_000);
    return JSON.stringify({
      date: date.toISOString().slice(0, 10),
      country: `Bench ${n % COUNTRIES_PER_DAY}`,
      total_cases: n,
      new_cases: 1,
      total_deaths: 0,
      new_deaths: 0,
    });
  };
}
