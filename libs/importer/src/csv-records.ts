import { CsvError, parse } from 'csv-parse';
import { Readable } from 'node:stream';

/**
 * The longest CSV record read, in bytes (what csv-parse counts). The rows of these files are far
 * shorter: at most 59 bytes in the trimmed files, 264 in the raw Our World in Data one; the limit
 * for a country name is 100 characters. Without a limit, a file without line breaks (or with a
 * quote left open) piles up into one field: minutes and a gigabyte of memory before an
 * `unrecognised CSV header`. 64 KiB leaves room for far wider files yet is reached in no time.
 */
export const MAX_RECORD_BYTES = 64 * 1024;

/** One well-formed CSV record and the line of the file it ends on. */
export interface CsvRecord {
  cells: string[];
  line: number;
}

/** The first record of the file, which should be the header, is not even well-formed CSV. */
export class UnreadableHeader extends Error {}

/** A record exceeds MAX_RECORD_BYTES: the file cannot be read on from there. */
export class RecordTooLong extends Error {}

/**
 * The well-formed records of a CSV text (UTF-8, BOM or not), in order. A malformed one (a quote
 * left open...) is told to `malformed` with its line and left out, and the parsing goes on with
 * the next one; a malformed first record throws `UnreadableHeader` instead. A record longer than
 * MAX_RECORD_BYTES ends the records with `RecordTooLong`, once those before it were yielded.
 */
export async function* csvRecords(
  source: Readable,
  malformed: (line: number, problem: string) => void,
): AsyncGenerator<CsvRecord> {
  let lastLine = 0;
  /** How many records came before the one too long (the parser has read on by then). */
  let tooLong: { before: number; line: number } | undefined;
  const parser = source.pipe(
    parse({
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      max_record_size: MAX_RECORD_BYTES,
      on_skip: (error: CsvError | undefined) => {
        // Skipping a record too long, csv-parse drops the rest of the chunk that it was reading
        // and goes on with the next one: what it reads after that is garbage.
        if (tooLong) return undefined;
        const line = (error?.lines as number | undefined) ?? 0;
        const records = (error?.records as number | undefined) ?? 0;
        if (error?.code === 'CSV_MAX_RECORD_SIZE') tooLong = { before: records, line };
        // Before the first record, it is the header that cannot be read: no row to report, and
        // nothing to import. Thrown here, it ends the parsing.
        if (records === 0) {
          const problem = tooLong ? tooLongProblem('the first record', line) : error?.message;
          throw new UnreadableHeader(problem);
        }
        if (!tooLong) malformed(line, error?.message ?? 'ligne CSV illisible');
        return undefined;
      },
    }),
  );
  source.on('error', (error) => parser.destroy(error));
  try {
    let count = 0;
    for await (const { record, info } of parser as AsyncIterable<ParsedRecord>) {
      if (tooLong && count === tooLong.before) break;
      count++;
      lastLine = info.lines;
      yield { cells: record, line: info.lines };
    }
  } finally {
    source.destroy();
  }
  if (tooLong) {
    throw new RecordTooLong(tooLongProblem(`the CSV record after line ${lastLine}`, tooLong.line));
  }
}

function tooLongProblem(record: string, line: number): string {
  return (
    `${record} exceeds ${MAX_RECORD_BYTES} bytes by line ${line}, while rows of these files ` +
    'are under 1 KB: line breaks missing, or a quote left open'
  );
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}
