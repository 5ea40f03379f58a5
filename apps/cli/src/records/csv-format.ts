import { RecordValues, apiDateProblem, countryNameProblem, recordProblems } from '@app/series';
import { CliError } from '../cli-error';

/** Why a row is not imported although it is well-formed. */
export type SkipReason = 'aggregate' | 'not-reported';

export const SKIP_REASONS: Record<SkipReason | 'invalid', string> = {
  aggregate: 'Our World in Data aggregates (OWID_ codes: World, continents, income groups...)',
  'not-reported': 'figures not reported (empty cells)',
  invalid: 'invalid rows (each reported above with its line number)',
};

export type RowOutcome =
  | { kind: 'record'; values: RecordValues }
  | { kind: 'skip'; reason: SkipReason }
  | { kind: 'invalid'; problems: string[] };

export interface CsvFormat {
  name: string;
  read(cells: string[]): RowOutcome;
}

/** The columns of the trimmed files of `../shared/data` (and of `export`), in this order. */
export const TRIMMED_COLUMNS = [
  'date',
  'country',
  'total_cases',
  'new_cases',
  'total_deaths',
  'new_deaths',
] as const;

const FIGURES = ['total_cases', 'new_cases', 'total_deaths', 'new_deaths'] as const;

/** Our World in Data codes that are real places, not aggregates. */
export const OWID_PLACES = new Set(['OWID_KOS', 'OWID_CYN']);

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Recognises the file by its header: the trimmed format (`date,country,total_cases,...`) or the
 * raw Our World in Data one (`location,iso_code,date,total_cases,...`); columns may come in any
 * order and extra columns are ignored.
 */
export function detectFormat(header: string[]): CsvFormat {
  const names = header.map((h) => h.trim().toLowerCase());
  const index = (name: string) => names.indexOf(name);
  const has = (columns: readonly string[]) => columns.every((c) => index(c) >= 0);
  if (has(['location', 'iso_code', 'date', ...FIGURES])) {
    const iso = index('iso_code');
    return rowReader('Our World in Data', index('location'), index, (cells) => {
      const code = (cells[iso] ?? '').trim();
      return code.startsWith('OWID_') && !OWID_PLACES.has(code) ? 'aggregate' : undefined;
    });
  }
  if (has(TRIMMED_COLUMNS)) return rowReader('trimmed', index('country'), index);
  throw new CliError(
    `unrecognised CSV header: expected the columns ${TRIMMED_COLUMNS.join(',')} ` +
      `or the Our World in Data columns location,iso_code,date,${FIGURES.join(',')}`,
  );
}

function rowReader(
  name: string,
  countryColumn: number,
  index: (name: string) => number,
  skip: (cells: string[]) => SkipReason | undefined = () => undefined,
): CsvFormat {
  const dateColumn = index('date');
  const figureColumns = FIGURES.map((f) => [f, index(f)] as const);
  return {
    name,
    read(cells) {
      const reason = skip(cells);
      if (reason) return { kind: 'skip', reason };
      const problems: string[] = [];
      const figures: Partial<Record<(typeof FIGURES)[number], number>> = {};
      let empty = false;
      for (const [field, column] of figureColumns) {
        const cell = (cells[column] ?? '').trim();
        if (cell === '') empty = true;
        else if (NUMBER.test(cell)) figures[field] = Number(cell);
        else problems.push(`${field} : « ${cell.slice(0, 40)} » n'est pas un nombre`);
      }
      const date = (cells[dateColumn] ?? '').trim();
      const country = (cells[countryColumn] ?? '').trim();
      if (empty && !problems.length) {
        // Figures not reported: skipped, unless the row does not even say where and when.
        const where = [apiDateProblem(date, true, 'date'), countryNameProblem(country, 'country')];
        problems.push(...where.filter((p): p is string => p !== undefined));
        if (!problems.length) return { kind: 'skip', reason: 'not-reported' };
      }
      if (problems.length) return { kind: 'invalid', problems };
      const values: RecordValues = {
        date,
        country,
        total_cases: figures.total_cases!,
        new_cases: figures.new_cases!,
        total_deaths: figures.total_deaths!,
        new_deaths: figures.new_deaths!,
      };
      const invalid = recordProblems(values);
      return invalid.length ? { kind: 'invalid', problems: invalid } : { kind: 'record', values };
    },
  };
}

/** One CSV field, quoted when needed. */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
