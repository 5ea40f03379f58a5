import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  ImportFile,
  changedSinceOpened,
  closeImportFile,
  fileContent,
  openImportFile,
} from './import-file';

/** The whole content `fileContent` reads, as text. */
async function readAll(file: ImportFile): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of fileContent(file, Infinity) as AsyncIterable<Buffer>)
    chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('the file an import reads (openImportFile)', () => {
  let dir: string;
  let path: string;
  const opened: ImportFile[] = [];
  const open = async (at: string) => {
    const file = await openImportFile(at);
    opened.push(file);
    return file;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'covid-import-file-'));
    path = join(dir, 'data.csv');
    writeFileSync(path, 'first content\n');
  });
  afterEach(async () => {
    for (const file of opened.splice(0)) await closeImportFile(file);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is read whole, from its first byte, as often as asked', async () => {
    const file = await open(path);
    expect(await readAll(file)).toBe('first content\n');
    expect(await readAll(file)).toBe('first content\n');
    expect(await changedSinceOpened(file)).toBe(false);
  });

  it('is still the file opened when another one takes its name (a save by renaming)', async () => {
    const file = await open(path);
    expect(await readAll(file)).toBe('first content\n');
    writeFileSync(join(dir, 'new.csv'), 'other content\n');
    renameSync(join(dir, 'new.csv'), path);
    expect(await readAll(file)).toBe('first content\n');
    expect(await changedSinceOpened(file)).toBe(false);
  });

  it('tells when it was written to after it was opened', async () => {
    const appended = await open(path);
    appendFileSync(path, 'one more line\n');
    expect(await changedSinceOpened(appended)).toBe(true);

    // The same size, another modification time: rewritten in place.
    const touched = await open(path);
    utimesSync(path, new Date(), new Date(touched.mtimeMs + 5000));
    expect(await changedSinceOpened(touched)).toBe(true);
  });

  it('is closed only once a reading stopped early has no read left under way', async () => {
    writeFileSync(path, Buffer.alloc(1024 * 1024, 'a'));
    const file = await openImportFile(path);
    const reads: Promise<unknown>[] = [];
    const read = file.handle.read.bind(file.handle) as (...args: unknown[]) => Promise<unknown>;
    jest.spyOn(file.handle, 'read').mockImplementation(((...args: unknown[]) => {
      const pending = read(...args);
      reads.push(pending);
      return pending;
    }) as FileHandle['read']);
    // One chunk taken, then the reading stops (a bad byte, Ctrl-C) while the next read is asked.
    for await (const chunk of fileContent(file, Infinity) as AsyncIterable<Buffer>) {
      expect(chunk.length).toBe(64 * 1024);
      break;
    }
    expect(reads.length).toBeGreaterThanOrEqual(2);
    await closeImportFile(file);
    // Closed under a read, that read would fail (EBADF), or read another file given its number.
    expect((await Promise.allSettled(reads)).map((r) => r.status)).toEqual(
      reads.map(() => 'fulfilled'),
    );
    expect(file.handle.fd).toBe(-1);
  });

  it('is gunzipped when it is gzip, whatever its name', async () => {
    writeFileSync(path, gzipSync('gzip content\n'));
    const file = await open(path);
    expect(file.gzip).toBe(true);
    expect(await readAll(file)).toBe('gzip content\n');
    expect(await readAll(file)).toBe('gzip content\n');
  });

  it('is refused, and nothing left open, when it is not a regular file', async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    await expect(openImportFile(dir)).rejects.toThrow(`cannot read ${dir}: not a file`);
    await expect(openImportFile(join(dir, 'none.csv'))).rejects.toThrow(/^cannot read .*ENOENT/);
    expect(openFiles()).toBe(before);
  });
});
