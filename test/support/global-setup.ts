import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const CLI_ENTRY = join(ROOT, 'dist/apps/cli/apps/cli/src/main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(CLI_ENTRY).mtimeMs;
  } catch {
    return 0;
  }
}

/** The CLI tests run the built command line: build it when it is missing or older than its sources. */
export default function globalSetup(): void {
  const sources = Math.max(
    newestSource(join(ROOT, 'apps/cli/src')),
    newestSource(join(ROOT, 'libs')),
  );
  if (builtAt() >= sources) return;
  execFileSync(join(ROOT, 'node_modules/.bin/nest'), ['build', 'cli'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
