#!/usr/bin/env node
'use strict';
/**
 * The admin command line by name (package.json's "bin"; `npm run cli` runs it too): the built
 * file at once, built first only when dist/ is missing or older than the sources.
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { builtEntry, needsBuild } = require('../scripts/build-freshness');

const root = join(__dirname, '..');

if (needsBuild(root, 'cli')) {
  // stdout stays the command's own (an export is piped from it): the build speaks on stderr.
  process.stderr.write('covid-cli: building the command line first (nest build cli)\n');
  const build = spawnSync(join(root, 'node_modules/.bin/nest'), ['build', 'cli'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) {
    const why = build.error ? `cannot run nest (${build.error.code}): npm ci first` : 'see above';
    process.stderr.write(`covid-cli: the build failed: ${why}\n`);
    process.exit(1);
  }
}
require(builtEntry(root, 'cli'));
