import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
export const API_MAIN = join(ROOT, 'dist/apps/api/apps/api/src/main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds the apps (`npm run build`) unless dist/ is newer than every source file, so that tests
 * can run the real start command. Jest workers share one build through a lock directory.
 */
export function ensureBuilt(): void {
  const sources = Math.max(newestSource(join(ROOT, 'apps')), newestSource(join(ROOT, 'libs')));
  const fresh = () => existsSync(API_MAIN) && statSync(API_MAIN).mtimeMs >= sources;
  if (fresh()) return;
  const lock = join(ROOT, 'dist/.build-lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (let waited = 0; ; waited += 500) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 120_000) throw new Error('timed out waiting for another build');
      execFileSync('sleep', ['0.5']);
    }
  }
  try {
    if (!fresh()) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  } finally {
    rmdirSync(lock);
  }
}
