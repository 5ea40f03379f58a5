import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    // Unit specs sit beside the code but are not built: editing one needs no new build.
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt(app: string): number {
  try {
    return statSync(join(ROOT, `dist/apps/${app}/apps/${app}/src/main.js`)).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Some suites run the built apps as child processes (the API's start command: graceful shutdown,
 * Compose environment, several instances; the admin CLI): build each one when it is missing or
 * older than its sources, so that `npm test` works on a fresh clone.
 */
export default function globalSetup(): void {
  const libs = newestSource(join(ROOT, 'libs'));
  for (const app of ['api', 'cli']) {
    const sources = Math.max(newestSource(join(ROOT, `apps/${app}/src`)), libs);
    if (builtAt(app) >= sources) continue;
    process.stdout.write(`\nBuilding ${app} for the suites that run it (nest build ${app})...\n`);
    execFileSync(join(ROOT, 'node_modules/.bin/nest'), ['build', app], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
}
