import { AUTH } from './bench-servers';
import { ReadLatencies } from './fairness-run';
import { latenciesOf, pacedReads } from './feed-run';

/** The target of issue 45: a country's corrections, over the JHU file loaded and revised. */
export const CORRECTIONS_TARGETS = { countryP99Ms: 25 };

/** The countries whose corrections are read in turn (the largest histories among them). */
const COUNTRIES = ['France', 'United States', 'India', 'Brazil', 'Peru', 'Japan', 'Kenya'];

export interface CorrectionsStats {
  /** `GET /api/covid/corrections?country=…`, one country at a time. */
  country: ReadLatencies;
  /** Corrections the first country's answer listed (the revised file's, at least one). */
  listed: number;
  targets: typeof CORRECTIONS_TARGETS;
  met: boolean;
}

const correctionsUrl = (country: string) =>
  `/api/covid/corrections?country=${encodeURIComponent(country)}`;

/**
 * The corrections of one country at a time (the countries in turn) at a steady rate, one request
 * at a time, as a partner checks what changed: read from the history at each request (no answer
 * is kept), so every read pays the query over a revised store.
 */
export async function runCorrections(
  apiUrl: string,
  { seconds = 10, readsPerSecond = 20 } = {},
): Promise<CorrectionsStats> {
  const first = await fetch(apiUrl + correctionsUrl(COUNTRIES[0]), { headers: AUTH });
  if (first.status !== 200) throw new Error(`corrections answered ${first.status}`);
  const listed = ((await first.json()) as { corrections: unknown[] }).corrections.length;
  const reads = await pacedReads(
    (n) => apiUrl + correctionsUrl(COUNTRIES[n % COUNTRIES.length]),
    AUTH,
    { seconds, readsPerSecond },
  );
  const country = latenciesOf(reads, readsPerSecond);
  return {
    country,
    listed,
    targets: CORRECTIONS_TARGETS,
    met:
      country.failedReads === 0 && listed > 0 && country.p99Ms < CORRECTIONS_TARGETS.countryP99Ms,
  };
}

/** The line of the results table's notes. */
export function formatCorrections(stats: CorrectionsStats): string {
  const ms = (value: number) => value.toFixed(1);
  const l = stats.country;
  return (
    `Corrections of one country over the revised store: ${l.reads} reads at ${l.readsPerSecond}/s, ` +
    `p50 ${ms(l.p50Ms)} ms, p99 ${ms(l.p99Ms)} ms (${l.failedReads} failed; ${stats.listed} listed ` +
    `for ${COUNTRIES[0]}) — ${stats.met ? 'met' : 'MISSED'} (p99 < ${stats.targets.countryP99Ms} ms)`
  );
}
