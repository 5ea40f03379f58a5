/**
 * Some suites start the built API as a child process (graceful shutdown, Compose environment,
 * several instances): build it first when dist/ is missing or older than the sources.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist/apps/api/apps/api/src/main.js');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (entry.name.endsWith('.ts')) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

module.exports = function globalSetup() {
  const sources = Math.max(newest(join(ROOT, 'apps/api/src')), newest(join(ROOT, 'libs')));
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs >= sources) return;
  process.stdout.write('\nBuilding the API for the suites that start it (nest build api)...\n');
  execFileSync(join(ROOT, 'node_modules/.bin/nest'), ['build', 'api'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
};
