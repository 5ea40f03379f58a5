import { DumpStats, runDump } from './dump-run';
import { AUTH } from './bench-servers';
import { ReadLatencies, timedGet } from './fairness-run';
import { latenciesOf, pacedReads } from './feed-run';
import { ServerProcess } from './server-process';

/** The targets of issue 44: one country's whole series, the world's, the streamed CSV of all. */
export const SERIES_TARGETS = { countryP99Ms: 25, worldP99Ms: 50, csvSeconds: 5 };

/** The countries whose whole series are read in turn. */
const COUNTRIES = ['France', 'United States', 'India', 'Brazil', 'Peru', 'Japan', 'Kenya'];
const SERIES_PATH = '/api/covid/series';
export const SERIES_CSV_PATH = `${SERIES_PATH}?format=csv&limit=100000000`;

export interface SeriesStats {
  /** One country's whole series with every metric. */
  country: ReadLatencies;
  /** `World`'s whole series with every metric. */
  world: ReadLatencies;
  /** Every place's whole series as CSV, streamed. */
  csv: DumpStats;
  targets: typeof SERIES_TARGETS;
  met: boolean;
}

const seriesUrl = (country: string) => `${SERIES_PATH}?country=${encodeURIComponent(country)}`;

/**
 * `GET /api/covid/series` (its rows flagged: negative and corrected days, issue 45): whole series
 * of one country at a time (all metrics, the countries in
 * turn) and of `World`, each at a steady rate, one request at a time, as a dashboard or partner
 * reads them, after one untimed read of each (a cold start, not the steady state): through the
 * read cache, so each answer is computed again once per CACHE_TTL_MS (those reads wait for it,
 * up to the cache's refresh wait); then every place's series as CSV, streamed (never cached).
 */
export async function runSeries(
  server: ServerProcess,
  // 600 reads: a p99 of 200 would be the second-slowest read, one host hiccup from a miss.
  { seconds = 30, readsPerSecond = 20 } = {},
): Promise<SeriesStats> {
  // The steady reader: each place read once first, untimed, as a dashboard's first visit does.
  for (const place of [...COUNTRIES, 'World'])
    await timedGet(server.url + seriesUrl(place), AUTH, false);
  const countryReads = await pacedReads(
    (n) => server.url + seriesUrl(COUNTRIES[n % COUNTRIES.length]),
    AUTH,
    { seconds, readsPerSecond },
  );
  const worldReads = await pacedReads(() => server.url + seriesUrl('World'), AUTH, {
    seconds,
    readsPerSecond: readsPerSecond / 2,
  });
  const country = latenciesOf(countryReads, readsPerSecond);
  const world = latenciesOf(worldReads, readsPerSecond / 2);
  const csv = await runDump(server, SERIES_CSV_PATH, AUTH, 'csv');
  return {
    country,
    world,
    csv,
    targets: SERIES_TARGETS,
    met:
      country.failedReads === 0 &&
      world.failedReads === 0 &&
      csv.status === 200 &&
      country.p99Ms < SERIES_TARGETS.countryP99Ms &&
      world.p99Ms < SERIES_TARGETS.worldP99Ms &&
      csv.seconds < SERIES_TARGETS.csvSeconds,
  };
}

/** The lines of the results table's notes. */
export function formatSeries(stats: SeriesStats): string[] {
  const ms = (value: number) => value.toFixed(1);
  const kind = (name: string, l: ReadLatencies) =>
    `${name}: ${l.reads} reads at ${l.readsPerSecond}/s, p50 ${ms(l.p50Ms)} ms, p99 ` +
    `${ms(l.p99Ms)} ms (${l.failedReads} failed)`;
  const { targets: t } = stats;
  return [
    `Series (all metrics), ${kind("a country's whole series", stats.country)}; ` +
      `${kind("World's", stats.world)}; every place as CSV: ` +
      `${stats.csv.rows.toLocaleString('en-US')} rows in ${stats.csv.seconds.toFixed(2)} s, ` +
      `memory +${(stats.csv.rssGrowthBytes / 1024 ** 2).toFixed(0)} MB — ` +
      `${stats.met ? 'met' : 'MISSED'} (p99 < ${t.countryP99Ms} ms, World p99 < ${t.worldP99Ms} ms, ` +
      `CSV < ${t.csvSeconds} s)`,
  ];
}
