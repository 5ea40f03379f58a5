import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The production start command: Node's own flags, then the API's entry (an absolute path). */
export interface StartCommand {
  nodeFlags: string[];
  main: string;
}

/**
 * `npm run start:prod` (`node [flags] <main.js>`, the Dockerfile's CMD too), read from the
 * package.json in `root`: the one place that says how the API starts in production. The tests,
 * the bench and the soak start it this way, flags included.
 */
export function productionStartCommand(root: string): StartCommand {
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
