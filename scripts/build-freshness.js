'use strict';
/**
 * Whether a built application (dist/apps/<app>/...) is missing or older than its TypeScript
 * sources, by modification times. Shared by the command line's launcher (bin/covid-cli.js) and
 * the tests' global setup, so that both rebuild on the same rule.
 */
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

function newestSource(dir) {
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

/** The file `node` runs for an application. */
function builtEntry(root, app) {
  return join(root, `dist/apps/${app}/apps/${app}/src/main.js`);
}

/**
 * True when `app` must be built: no built file, or a source newer than it. Without sources (a
 * production image holds dist/ only) a built file is taken as it is.
 */
function needsBuild(root, app) {
  const entry = builtEntry(root, app);
  if (!existsSync(entry)) return true;
  const sources = join(root, `apps/${app}/src`);
  if (!existsSync(sources)) return false;
  const newest = Math.max(newestSource(sources), newestSource(join(root, 'libs')));
  return statSync(entry).mtimeMs < newest;
}

module.exports = { builtEntry, needsBuild };
