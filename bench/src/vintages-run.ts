import { AUTH } from './bench-servers';
import { ReadLatencies } from './fairness-run';
import { latenciesOf, pacedReads } from './feed-run';

/** The targets of issue 54: a country's versions, and its series 7 days on, over the revised store. */
export const VINTAGES_TARGETS = { countryP99Ms: 25, lagSeriesP99Ms: 25 };

/** The countries read in turn (the largest histories among them). */
const COUNTRIES = ['France', 'United States', 'India', 'Brazil', 'Peru', 'Japan', 'Kenya'];

/** The JHU file's last date: each read ends a day earlier than the one before, so none is cached. */
const LAST_DATE = Date.parse('2023-03-09T00:00:00Z');
const toDate = (n: number) => new Date(LAST_DATE - n * 86_400_000).toISOString().slice(0, 10);

export interface VintagesStats {
  /** `GET /api/covid/vintages?country=…`: a country's first page of versions. */
  country: ReadLatencies;
  /** `GET /api/covid/series?country=…&lag=7`: a country's series as it stood 7 days on. */
  lagSeries: ReadLatencies;
  /** Versions the first country's page listed (its revised figures' two versions among them). */
  listed: number;
  targets: typeof VINTAGES_TARGETS;
  met: boolean;
}

const place = (n: number) => encodeURIComponent(COUNTRIES[n % COUNTRIES.length]);
const vintagesUrl = (n: number) => `/api/covid/vintages?country=${place(n)}&to=${toDate(n)}`;
const lagUrl = (n: number) => `/api/covid/series?country=${place(n)}&lag=7&to=${toDate(n)}`;

/**
 * A country's versions, then its series 7 days on, one country at a time at a steady rate, one
 * request at a time; each URL once, so that every read pays its history query.
 */
export async function runVintages(
  apiUrl: string,
  { seconds = 10, readsPerSecond = 20 } = {},
): Promise<VintagesStats> {
  const first = await fetch(apiUrl + `/api/covid/vintages?country=${place(0)}`, { headers: AUTH });
  if (first.status !== 200) throw new Error(`vintages answered ${first.status}`);
  const listed = ((await first.json()) as { vintages: unknown[] }).vintages.length;
  const options = { seconds, readsPerSecond };
  const country = latenciesOf(
    await pacedReads((n) => apiUrl + vintagesUrl(n), AUTH, options),
    readsPerSecond,
  );
  const lagSeries = latenciesOf(
    await pacedReads((n) => apiUrl + lagUrl(n), AUTH, options),
    readsPerSecond,
  );
  return {
    country,
    lagSeries,
    listed,
    targets: VINTAGES_TARGETS,
    met:
      listed > 0 &&
      country.failedReads === 0 &&
      lagSeries.failedReads === 0 &&
      country.p99Ms < VINTAGES_TARGETS.countryP99Ms &&
      lagSeries.p99Ms < VINTAGES_TARGETS.lagSeriesP99Ms,
  };
}

/** The lines of the results table's notes. */
export function formatVintages(stats: VintagesStats): string[] {
  const ms = (value: number) => value.toFixed(1);
  const line = (what: string, l: ReadLatencies, target: number) =>
    `${what} over the revised store: ${l.reads} reads at ${l.readsPerSecond}/s, p50 ${ms(l.p50Ms)} ms, ` +
    `p99 ${ms(l.p99Ms)} ms (${l.failedReads} failed) — ${l.failedReads === 0 && l.p99Ms < target ? 'met' : 'MISSED'} (p99 < ${target} ms)`;
  return [
    `${line("One country's versions (/vintages)", stats.country, stats.targets.countryP99Ms)}; ${stats.listed} listed for ${COUNTRIES[0]}`,
    line(
      "One country's series 7 days on (/series?lag=7)",
      stats.lagSeries,
      stats.targets.lagSeriesP99Ms,
    ),
  ];
}
