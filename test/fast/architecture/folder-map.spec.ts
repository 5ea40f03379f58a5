import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

describe('the folder map (docs/architecture.md)', () => {
  it('names every file at the root of apps/api/src, and only those', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const row = /^\| the folder itself \|(.*)\|$/m.exec(doc);
    expect(row).not.toBeNull();
    const named = [...row![1].matchAll(/`([\w.-]+\.ts)`/g)].map((m) => m[1]).sort();
    const files = readdirSync(join(ROOT, 'apps/api/src'))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
      .sort();
    expect(named).toEqual(files);
  });
});
