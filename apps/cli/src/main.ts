import 'reflect-metadata';
import { runCli } from './cli';

/** Entry point: `node dist/apps/cli/apps/cli/src/main.js <command>` (or `npm run cli -- <command>`). */
void runCli(process.argv.slice(2)).then((code) => {
  // Exit once stdout is flushed (an export may still be draining into a pipe).
  process.stdout.write('', () => process.exit(code));
});
