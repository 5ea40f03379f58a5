import { FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ImportError } from './import-error';
import { byteLimit } from './import-limits';
import { describeError } from '@app/common';

/**
 * The file that `import` reads, as found before reading it, and held open until
 * `closeImportFile`: the check and the import read the same file (`fileContent`), even if another
 * one takes its name in between (a download or an editor that saves by renaming).
 */
export interface ImportFile {
  path: string;
  handle: FileHandle;
  /** Bytes on disk (compressed for a gzip file): the progress counts these. */
  size: number;
  /** When its content last changed, as found on opening it (`changedSinceOpened`). */
  mtimeMs: number;
  gzip: boolean;
}

/** A readable regular file, else a usage error (exit code 2) before anything else happens. */
export async function openImportFile(path: string): Promise<ImportFile> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a file');
    const gzip = await startsAsGzip(handle);
    return { path, handle, size: stat.size, mtimeMs: stat.mtimeMs, gzip };
  } catch (error) {
    await handle?.close();
    throw new ImportError(`cannot read ${path}: ${describeError(error)}`, 'usage');
  }
}

/**
 * Closes the file once the reads still under way are done (a reading stopped early may have one
 * left: the descriptor is never closed under it, nor its number handed to another file meanwhile).
 */
export function closeImportFile(file: ImportFile): Promise<void> {
  return file.handle.close();
}

/**
 * Whether the file opened was written to since (its size or modification time differ): the file
 * held open, not whatever file now bears its name.
 */
export async function changedSinceOpened(file: ImportFile): Promise<boolean> {
  const now = await file.handle.stat();
  return now.size !== file.size || now.mtimeMs !== file.mtimeMs;
}

/** Gzip files start with the bytes 1f 8b (whatever their name). */
async function startsAsGzip(handle: FileHandle): Promise<boolean> {
  const magic = Buffer.alloc(2);
  const { bytesRead } = await handle.read(magic, 0, 2, 0);
  return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
}

/**
 * The file's content from its first byte, gunzipped when it is gzip; a read error of the file
 * comes out of the returned stream, and so does `TooLarge` once the text (gunzipped) passes
 * `maxBytes`: it is counted as it is decompressed. `onRead` is given each chunk read from disk (raw bytes). The file stays open
 * (`closeImportFile` closes it).
 */
export function fileContent(
  file: ImportFile,
  maxBytes: number,
  onRead?: (chunk: Buffer) => void,
): Readable {
  const raw = Readable.from(chunksOf(file.handle), { objectMode: false });
  if (onRead) raw.on('data', (chunk: Buffer) => onRead(chunk));
  const text = file.gzip ? gunzipped(raw) : raw;
  const limit = byteLimit(file.path, file.gzip, maxBytes);
  text.on('error', (error) => limit.destroy(error));
  limit.on('close', () => text.destroy());
  return text.pipe(limit);
}

function gunzipped(raw: Readable): Readable {
  const gunzip = createGunzip();
  raw.on('error', (error) => gunzip.destroy(error));
  gunzip.on('close', () => raw.destroy());
  return raw.pipe(gunzip);
}

/** As much as `fs.createReadStream` reads at a time (the tests of split characters rely on it). */
const CHUNK = 64 * 1024;

/**
 * The bytes of the file, from the first one: read at positions, and never closed here (a file
 * stream closes its descriptor when it is destroyed, and a reading may stop early).
 */
async function* chunksOf(handle: FileHandle): AsyncGenerator<Buffer> {
  for (let position = 0; ;) {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield bytesRead === CHUNK ? buffer : buffer.subarray(0, bytesRead);
  }
}

/** An error of zlib (damaged or truncated gzip data), not of the file system. */
export function isGzipError(error: unknown): error is Error {
  return error instanceof Error && /^Z_/.test((error as NodeJS.ErrnoException).code ?? '');
}
