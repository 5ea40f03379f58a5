import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { needsBuild } from '../../scripts/build-freshness';

const ROOT = join(__dirname, '../..');

/**
 * Some suites run the built apps as child processes (the API's start command: graceful shutdown,
 * Compose environment, several instances; the admin CLI): build each one when it is missing or
 * older than its sources, so that `npm test` works on a fresh clone.
 */
export default function globalSetup(): void {
  for (const app of ['api', 'cli']) {
    if (!needsBuild(ROOT, app)) continue;
    process.stdout.write(`\nBuilding ${app} for the suites that run it (nest build ${app})...\n`);
    execFileSync(join(ROOT, 'node_modules/.bin/nest'), ['build', app], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
}
