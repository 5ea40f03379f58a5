import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '../../..');
const ARCHITECTURE = join(ROOT, 'docs/architecture.md');

/** The traces docs/architecture.md must hold: its heading, the most files it may name. */
const TRACES = [
  { heading: 'A write, from the request to its SQL', most: 6 },
  { heading: 'A derived-figures read, from the request to its SQL', most: 12 },
];

/** The `| n | \`file\` | ... |` rows of the section under `heading`, in order. */
function traceFiles(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${heading}"`);
  const rest = markdown.slice(start + heading.length + 5);
  const section = rest.slice(0, rest.search(/\n##? /) < 0 ? undefined : rest.search(/\n##? /));
  return [...section.matchAll(/^\| *\d+ *\| *`([^`]+)` *\|/gm)].map((match) => match[1]);
}

/** The tsconfig aliases (`@app/diseases` → `libs/diseases/src`), exact ones only. */
function aliases(): Map<string, string> {
  const { compilerOptions } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return new Map(
    Object.entries(compilerOptions.paths)
      .filter(([alias]) => !alias.endsWith('/*'))
      .map(([alias, [target]]) => [alias, target]),
  );
}

/** The project files `file` imports or re-exports (relative or by alias), as root-relative paths. */
function importsOf(file: string, paths: Map<string, string>): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/g)];
  return specifiers.flatMap(([, specifier]) => {
    const base = specifier.startsWith('.')
      ? resolve(ROOT, dirname(file), specifier)
      : paths.has(specifier)
        ? join(ROOT, paths.get(specifier)!)
        : undefined;
    if (base === undefined) return [];
    const found = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path));
    return found === undefined ? [] : [relative(ROOT, found)];
  });
}

/**
 * Whether `from` reaches `to` by an import: directly, or through `index.ts` files that
 * re-export it (a library's alias, a part's face).
 */
function imports(from: string, to: string, paths: Map<string, string>): boolean {
  const seen = new Set<string>();
  const next = [...importsOf(from, paths)];
  while (next.length > 0) {
    const file = next.pop()!;
    if (file === to) return true;
    if (seen.has(file) || !file.endsWith('/index.ts')) continue;
    seen.add(file);
    next.push(...importsOf(file, paths));
  }
  return false;
}

/** What is wrong with a trace: a missing file, a link that is no import, too many files. */
function problems(files: string[], most: number): string[] {
  const paths = aliases();
  const found: string[] = [];
  if (files.length === 0) found.push('no file named');
  if (files.length > most) found.push(`${files.length} files, more than ${most}`);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) found.push(`${file} does not exist`);
  }
  files.slice(1).forEach((file, i) => {
    const from = files[i];
    if (existsSync(join(ROOT, from)) && !imports(from, file, paths)) {
      found.push(`${from} does not import ${file}`);
    }
  });
  return found;
}

describe('the traces of docs/architecture.md', () => {
  const markdown = readFileSync(ARCHITECTURE, 'utf8');

  it.each(TRACES)('"$heading" names at most $most files, each importing the next', (trace) => {
    const files = traceFiles(markdown, trace.heading);
    expect(problems(files, trace.most)).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it('tells a broken trace: a file renamed, the order reversed, one file too many', () => {
    const files = traceFiles(markdown, TRACES[0].heading);
    const renamed = files.map((file, i) => (i === 1 ? file.replace('.ts', '-old.ts') : file));
    expect(problems(renamed, 6)).toEqual([
      `${renamed[1]} does not exist`,
      `${files[0]} does not import ${renamed[1]}`,
    ]);
    expect(problems([...files].reverse(), 6)).toHaveLength(files.length - 1);
    expect(problems(files, files.length - 1)).toEqual([
      `${files.length} files, more than ${files.length - 1}`,
    ]);
  });
});
