import { COVID_DISEASE, MPOX_DISEASE, DiseaseDefinition } from '@app/diseases';
import { CliError } from '../cli-error';

const DISEASES: Record<string, DiseaseDefinition> = { covid: COVID_DISEASE, mpox: MPOX_DISEASE };

/** The disease a command names: covid or mpox (exit code 2 otherwise). */
export function diseaseNamed(name: string): DiseaseDefinition {
  const found = DISEASES[name];
  if (!found) throw CliError.usage(`unknown disease "${name}": expected covid or mpox`);
  return found;
}

/** The dataset `import` names, `population` aside: a disease's records (exit code 2 otherwise). */
export function datasetDisease(name: string): DiseaseDefinition {
  const found = DISEASES[name];
  if (!found) {
    throw CliError.usage(`unknown dataset "${name}": expected covid, mpox or population`);
  }
  return found;
}
