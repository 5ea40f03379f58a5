import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError } from '../cli-error';
import { describe } from '../cli-context';
import { ImportFile, fileContent, isGzipError } from './import-file';

/**
 * Reads the whole file once before the import writes anything, and refuses it as a whole when it
 * cannot be read to its end. Gzip detects damage only with the checksum at the end of the stream:
 * every line decoded after a damaged byte is garbage that may well pass validation (made-up
 * countries, figures), and a truncated download is missing rows that nobody would notice.
 */
export async function checkImportFile(file: ImportFile): Promise<void> {
  try {
    // Decompressing is the check: zlib fails the stream on a bad checksum or a missing end.
    await pipeline(fileContent(file), new Writable({ write: (_chunk, _encoding, done) => done() }));
  } catch (error) {
    throw unreadable(file, error);
  }
}

function unreadable(file: ImportFile, error: unknown): CliError {
  const problem = isGzipError(error)
    ? `${file.path} is a damaged or truncated gzip file (${describe(error)})`
    : `cannot read ${file.path} (${describe(error)})`;
  return new CliError(`${problem}; nothing was imported`);
}
