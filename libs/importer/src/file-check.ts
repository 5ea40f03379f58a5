import { createHash } from 'node:crypto';
import { describeError } from '@app/common';
import { ImportError, interruptedBy } from './import-error';
import { ImportFile, fileContent, isGzipError } from './import-file';
import { TooLarge } from './import-limits';

/**
 * Reads the whole file once before the import writes anything, and refuses it as a whole when it
 * cannot be read to its end, is not UTF-8 text or holds more than `maxBytes` (gunzipped: it stops
 * there). Answers the SHA-256 of its bytes (hex).
 *
 * - Gzip detects damage only with the checksum at the end of the stream: every line decoded after
 *   a damaged byte is garbage that may well pass validation (made-up countries, figures), and a
 *   truncated download is missing rows that nobody would notice.
 * - The CSV parser would turn each byte that is not UTF-8 (a Latin-1 `é`) into U+FFFD and store
 *   `Fran�e` as a country.
 */
export async function checkImportFile(
  file: ImportFile,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<string> {
  const utf8 = new Utf8Check();
  const hash = createHash('sha256');
  let badLine: number | undefined;
  try {
    for await (const chunk of fileContent(file, maxBytes, (raw) =>
      hash.update(raw),
    ) as AsyncIterable<Buffer>) {
      if (signal?.aborted) break;
      badLine ??= utf8.firstBadLine(chunk);
      // A damaged gzip file decodes to garbage that is seldom UTF-8: read on to its checksum,
      // which tells the real problem.
      if (badLine !== undefined && !file.gzip) break;
    }
  } catch (error) {
    throw unreadable(file, error);
  }
  const stoppedBy = interruptedBy(signal);
  if (stoppedBy) {
    throw new ImportError(
      `interrupted by ${stoppedBy} while checking ${file.path}; nothing was imported`,
      'interrupted',
      stoppedBy,
    );
  }
  badLine ??= utf8.endsBadly();
  if (badLine !== undefined) throw notUtf8(file, badLine);
  return hash.digest('hex');
}

/**
 * A fatal UTF-8 decoder fed one line at a time (in stream mode: a character may straddle two
 * chunks), so that the line of the first bad byte is known without decoding anything twice.
 */
class Utf8Check {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private line = 1;

  /** The line of the first byte of `chunk` that is not UTF-8, if any. */
  firstBadLine(chunk: Buffer): number | undefined {
    for (let start = 0; start < chunk.length;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline < 0 ? chunk.length : newline + 1;
      if (!this.decodes(chunk.subarray(start, end))) return this.line;
      if (newline >= 0) this.line++;
      start = end;
    }
    return undefined;
  }

  /** The line of a character left incomplete at the end of the file, if any. */
  endsBadly(): number | undefined {
    return this.decodes() ? undefined : this.line;
  }

  private decodes(bytes?: Buffer): boolean {
    try {
      this.decoder.decode(bytes, { stream: bytes !== undefined });
      return true;
    } catch {
      return false;
    }
  }
}

function unreadable(file: ImportFile, error: unknown): ImportError {
  if (error instanceof TooLarge) return new ImportError(`${error.message}; nothing was imported`);
  const problem = isGzipError(error)
    ? `${file.path} is a damaged or truncated gzip file (${describeError(error)})`
    : `cannot read ${file.path} (${describeError(error)})`;
  return new ImportError(`${problem}; nothing was imported`);
}

function notUtf8(file: ImportFile, line: number): ImportError {
  const convert = file.gzip
    ? `gunzip -c ${file.path} | iconv -f latin1 -t utf-8 > utf8.csv`
    : `iconv -f latin1 -t utf-8 ${file.path} > utf8.csv`;
  return new ImportError(
    `${file.path} is not UTF-8 text: line ${line} holds a byte that is not UTF-8 ` +
      `(a Latin-1 or Windows-1252 file?); nothing was imported; convert the file first, e.g. ${convert}`,
  );
}
