import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CliError } from '../cli-error';
import { describe } from '../cli-context';

/** The file that `import` reads, as found before reading it. */
export interface ImportFile {
  path: string;
  /** Bytes on disk (compressed for a gzip file): the progress counts these. */
  size: number;
  gzip: boolean;
}

/** A readable regular file, else a usage error (exit code 2) before anything else happens. */
export function openImportFile(path: string): ImportFile {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a file');
    return { path, size: stat.size, gzip: startsAsGzip(fd) };
  } catch (error) {
    throw CliError.usage(`cannot read ${path}: ${describe(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Gzip files start with the bytes 1f 8b (whatever their name). */
function startsAsGzip(fd: number): boolean {
  const magic = Buffer.alloc(2);
  return readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
}

/**
 * The file's content, gunzipped when it is gzip; a read error of the file comes out of the
 * returned stream. `onRead` is told the size of each chunk read from disk.
 */
export function fileContent(file: ImportFile, onRead?: (bytes: number) => void): Readable {
  const raw = createReadStream(file.path);
  if (onRead) raw.on('data', (chunk: Buffer | string) => onRead(chunk.length));
  if (!file.gzip) return raw;
  const gunzip = createGunzip();
  raw.on('error', (error) => gunzip.destroy(error));
  gunzip.on('close', () => raw.destroy());
  return raw.pipe(gunzip);
}

/** An error of zlib (damaged or truncated gzip data), not of the file system. */
export function isGzipError(error: unknown): error is Error {
  return error instanceof Error && /^Z_/.test((error as NodeJS.ErrnoException).code ?? '');
}
