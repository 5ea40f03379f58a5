import { ConfigValidationError } from './env.validation';

/** A disease's records, or the population table (`import population`). */
export type SyncDataset = 'covid' | 'mpox' | 'population';
const SYNC_DATASETS: readonly string[] = ['covid', 'mpox', 'population'];

export interface SyncSource {
  dataset: SyncDataset;
  url: string;
}

/** Scheduled sync (`SYNC_SOURCES`, `SYNC_INTERVAL`); absent when `SYNC_SOURCES` is not set. */
export interface SyncConfig {
  sources: SyncSource[];
  intervalMs: number;
  /** `SYNC_INTERVAL` as written, for logs and `/api/sources`. */
  interval: string;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Shorter would hammer the sources; the status and the stale signal count in intervals. */
export const MIN_SYNC_INTERVAL_MS = 30_000;
const MAX_SYNC_INTERVAL_MS = 30 * UNITS.d;
export const DEFAULT_SYNC_INTERVAL = '6h';

/** An entry starts at a dataset's name: commas inside a URL's query stay part of it. */
const ENTRY_START = /,\s*(?=(?:covid|mpox|population)\s*=)/i;

/**
 * `covid=https://...,mpox=https://...,population=https://...` (a dataset may have several URLs, synced in the order
 * given) and `30s`..`30d`. Throws ConfigValidationError naming every problem.
 */
export function parseSyncConfig(
  sources: string | undefined,
  interval: string | undefined,
): SyncConfig | undefined {
  const problems: string[] = [];
  const text = interval?.trim() || DEFAULT_SYNC_INTERVAL;
  const match = /^(\d{1,7})\s*([smhd])$/i.exec(text);
  const intervalMs = match ? Number(match[1]) * UNITS[match[2].toLowerCase()] : NaN;
  if (!(intervalMs >= MIN_SYNC_INTERVAL_MS && intervalMs <= MAX_SYNC_INTERVAL_MS)) {
    problems.push(
      `SYNC_INTERVAL must be a duration such as 30s, 15m, 6h or 1d (30 seconds to 30 days), not "${text}"`,
    );
  }
  if (!sources?.trim()) {
    if (problems.length) throw new ConfigValidationError(problems);
    return undefined;
  }
  const parsed: SyncSource[] = [];
  /** The entry number of each dataset and URL already listed. */
  const seen = new Map<string, number>();
  sources
    .split(ENTRY_START)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .forEach((entry, index) => {
      const equals = entry.indexOf('=');
      const dataset = entry.slice(0, Math.max(equals, 0)).trim().toLowerCase();
      const url = entry.slice(equals + 1).trim();
      if (!SYNC_DATASETS.includes(dataset)) {
        problems.push(
          `SYNC_SOURCES: entry ${index + 1} is not "covid=<url>", "mpox=<url>" or "population=<url>"`,
        );
      } else if (!isHttpUrl(url)) {
        problems.push(`SYNC_SOURCES: the ${dataset} URL must be an http:// or https:// URL`);
      } else if (seen.has(`${dataset} ${url}`)) {
        // By its entry numbers: the URL may hold credentials or a signature.
        const first = seen.get(`${dataset} ${url}`)!;
        problems.push(
          `SYNC_SOURCES: entry ${index + 1} lists the ${dataset} URL of entry ${first} again`,
        );
      } else {
        seen.set(`${dataset} ${url}`, index + 1);
        parsed.push({ dataset: dataset as SyncDataset, url });
      }
    });
  if (problems.length) throw new ConfigValidationError(problems);
  return { sources: parsed, intervalMs, interval: text };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !/\s/.test(value);
  } catch {
    return false;
  }
}

/** The first run waits this long after start-up, so that it does not compete with the start. */
export const FIRST_RUN_DELAY_MS = 3000;

/**
 * Runs are aligned on multiples of the interval since the epoch, the same moments on every
 * instance: one slot, one run (whichever instance takes the lock first; the others then find
 * the slot done).
 */
export function slotStart(at: number, intervalMs: number): number {
  return Math.floor(at / intervalMs) * intervalMs;
}

export function nextSlot(at: number, intervalMs: number): number {
  return slotStart(at, intervalMs) + intervalMs;
}

/** The data is stale once its last success is older than this many intervals (health). */
export const STALE_AFTER_INTERVALS = 3;
