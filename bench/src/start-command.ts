import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT } from './paths';

/** The production start command: Node's own flags, then the API's entry. */
export interface StartCommand {
  nodeFlags: string[];
  main: string;
}

/**
 * `npm run start:prod` (`node [flags] <main.js>`, the Dockerfile's CMD too), read from
 * package.json, so that the bench starts the API exactly as production does, flags included.
 */
export function productionStartCommand(root = PROJECT_ROOT): StartCommand {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const command = pkg.scripts?.['start:prod'] ?? '';
  const [node, ...rest] = command.trim().split(/\s+/);
  const main = rest.pop();
  if (node !== 'node' || !main || rest.some((flag) => !flag.startsWith('-'))) {
    throw new Error(`package.json start:prod is not "node [flags] <main.js>": ${command}`);
  }
  return { nodeFlags: rest, main: resolve(root, main) };
}

/** Node flags as given on the command line (`--api-node-flags "--a --b"`; empty: none). */
export function splitFlags(value: string): string[] {
  return value.split(/\s+/).filter((flag) => flag !== '');
}
