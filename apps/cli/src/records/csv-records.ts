import { CsvError, parse } from 'csv-parse';
import { Readable } from 'node:stream';

/** One well-formed CSV record and the line of the file it ends on. */
export interface CsvRecord {
  cells: string[];
  line: number;
}

/** The first record of the file, which should be the header, is not even well-formed CSV. */
export class UnreadableHeader extends Error {}

/**
 * The well-formed records of a CSV text (UTF-8, BOM or not), in order. A malformed one (a quote
 * left open...) is told to `malformed` with its line and left out, and the parsing goes on with
 * the next one; a malformed first record throws `UnreadableHeader` instead.
 */
export async function* csvRecords(
  source: Readable,
  malformed: (line: number, problem: string) => void,
): AsyncGenerator<CsvRecord> {
  const parser = source.pipe(
    parse({
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        // Before the first record, it is the header that cannot be read: no row to report, and
        // nothing to import. Thrown here, it ends the parsing.
        if (error?.records === 0) throw new UnreadableHeader(error.message);
        malformed(
          (error?.lines as number | undefined) ?? 0,
          error?.message ?? 'ligne CSV illisible',
        );
        return undefined;
      },
    }),
  );
  source.on('error', (error) => parser.destroy(error));
  for await (const { record, info } of parser as AsyncIterable<ParsedRecord>) {
    yield { cells: record, line: info.lines };
  }
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}
