import { Transform } from 'node:stream';

/*
 * How much one import file may hold (`IMPORT_MAX_BYTES`, `IMPORT_MAX_ROWS`): what an import keeps
 * in memory grows with its rows, and a small gzip file can hold gigabytes of text (a gzip bomb).
 * Past either limit the import stops at once and writes nothing.
 */

/** The file's text (gunzipped) passes `IMPORT_MAX_BYTES`. */
export class TooLarge extends Error {
  constructor(path: string, gzip: boolean, maxBytes: number) {
    super(
      `${path} is larger than ${maxBytes} bytes${gzip ? ' once decompressed' : ''} ` +
        '(the limit IMPORT_MAX_BYTES)',
    );
  }
}

/** The file has more data rows than `IMPORT_MAX_ROWS`. */
export class TooManyRows extends Error {
  constructor(path: string, maxRows: number) {
    super(`${path} has more than ${maxRows} rows (the limit IMPORT_MAX_ROWS)`);
  }
}

/** Passes the bytes on until there are more than `maxBytes` of them, then fails (`TooLarge`). */
export function byteLimit(path: string, gzip: boolean, maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new TooLarge(path, gzip, maxBytes));
      else done(null, chunk);
    },
  });
}
