import { COVID_DISEASE, MPOX_DISEASE, DiseaseDefinition } from '@app/diseases';
import { CliError } from '../cli-error';

const SERIES: Record<string, DiseaseDefinition> = { covid: COVID_DISEASE, mpox: MPOX_DISEASE };

/** The data set a command names: covid or mpox (exit code 2 otherwise). */
export function diseaseNamed(name: string): DiseaseDefinition {
  const found = SERIES[name];
  if (!found) throw CliError.usage(`unknown data set "${name}": expected covid or mpox`);
  return found;
}
