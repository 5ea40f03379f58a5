import {
  StartCommand,
  productionStartCommand as readStartCommand,
} from '../../test/support/start-command';
import { PROJECT_ROOT } from './paths';

/** `npm run start:prod` of this project: the bench starts the API exactly so, flags included. */
export function productionStartCommand(): StartCommand {
  return readStartCommand(PROJECT_ROOT);
}

/** Node flags as given on the command line (`--api-node-flags "--a --b"`; empty: none). */
export function splitFlags(value: string): string[] {
  return value.split(/\s+/).filter((flag) => flag !== '');
}
