import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  ImportFile,
  changedSinceOpened,
  closeImportFile,
  fileContent,
  openImportFile,
} from '../apps/cli/src/records/import-file';

/** The whole content `fileContent` reads, as text. */
async function readAll(file: ImportFile): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of fileContent(file) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('the file an import reads (openImportFile)', () => {
  let dir: string;
  let path: string;
  const opened: ImportFile[] = [];
  const open = (at: string) => {
    const file = openImportFile(at);
    opened.push(file);
    return file;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'covid-import-file-'));
    path = join(dir, 'data.csv');
    writeFileSync(path, 'first content\n');
  });
  afterEach(() => {
    for (const file of opened.splice(0)) closeImportFile(file);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is read whole, from its first byte, as often as asked', async () => {
    const file = open(path);
    expect(await readAll(file)).toBe('first content\n');
    expect(await readAll(file)).toBe('first content\n');
    expect(changedSinceOpened(file)).toBe(false);
  });

  it('is still the file opened when another one takes its name (a save by renaming)', async () => {
    const file = open(path);
    expect(await readAll(file)).toBe('first content\n');
    writeFileSync(join(dir, 'new.csv'), 'other content\n');
    renameSync(join(dir, 'new.csv'), path);
    expect(await readAll(file)).toBe('first content\n');
    expect(changedSinceOpened(file)).toBe(false);
  });

  it('tells when it was written to after it was opened', () => {
    const appended = open(path);
    appendFileSync(path, 'one more line\n');
    expect(changedSinceOpened(appended)).toBe(true);

    // The same size, another modification time: rewritten in place.
    const touched = open(path);
    utimesSync(path, new Date(), new Date(touched.mtimeMs + 5000));
    expect(changedSinceOpened(touched)).toBe(true);
  });

  it('is gunzipped when it is gzip, whatever its name', async () => {
    writeFileSync(path, gzipSync('gzip content\n'));
    const file = open(path);
    expect(file.gzip).toBe(true);
    expect(await readAll(file)).toBe('gzip content\n');
    expect(await readAll(file)).toBe('gzip content\n');
  });

  it('is refused, and nothing left open, when it is not a regular file', () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    expect(() => openImportFile(dir)).toThrow(`cannot read ${dir}: not a file`);
    expect(() => openImportFile(join(dir, 'none.csv'))).toThrow(/^cannot read .*ENOENT/);
    expect(openFiles()).toBe(before);
  });
});
