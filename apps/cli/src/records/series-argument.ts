import { COVID_SERIES, MPOX_SERIES, SeriesDefinition } from '@app/series';
import { CliError } from '../cli-error';

const SERIES: Record<string, SeriesDefinition> = { covid: COVID_SERIES, mpox: MPOX_SERIES };

/** The data set a command names: covid or mpox (exit code 2 otherwise). */
export function seriesNamed(name: string): SeriesDefinition {
  const found = SERIES[name];
  if (!found) throw CliError.usage(`unknown data set "${name}": expected covid or mpox`);
  return found;
}
