import { CliError } from '../cli-error';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_MS = 365 * UNITS.d;

/** `90s`, `30m`, `24h`, `7d` to milliseconds (from 1 second to 365 days). */
export function parseDuration(value: string, option: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(value.trim());
  const ms = match ? Number(match[1]) * UNITS[match[2]] : NaN;
  if (!match || ms < 1000 || ms > MAX_MS) {
    throw CliError.usage(
      `${option} must be a duration such as 90s, 30m, 24h or 7d (1 second to 365 days), not "${value}"`,
    );
  }
  return ms;
}
