import { apiDateProblem, countryNameProblem } from '@app/diseases';
import { ImportError } from './import-error';
import { FIGURES, Figures } from './blank-cells';

/** Why a row is not imported although it is well-formed. */
export type SkipReason = 'aggregate' | 'not-reported';

export const SKIP_REASONS: Record<SkipReason | 'invalid', string> = {
  aggregate: 'Our World in Data aggregates (World, continents, income groups...)',
  'not-reported': 'figures not reported (every figure cell empty)',
  invalid: 'invalid rows (each reported above with its line number)',
};

/** A row as the file gives it: a blank figure cell is undefined (see `BlankCellFiller`). */
export interface SourceRow {
  date: string;
  country: string;
  /** The source's ISO code of the place (WHO alpha-2, OWID alpha-3), when it has one. */
  code?: string;
  figures: Partial<Figures>;
}

export type RowOutcome =
  | { kind: 'row'; row: SourceRow }
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

/** The WHO's layout (daily and weekly files): its columns for our figures. */
const WHO_COLUMNS: Record<(typeof FIGURES)[number] | 'date' | 'country', string> = {
  date: 'date_reported',
  country: 'country',
  total_cases: 'cumulative_cases',
  new_cases: 'new_cases',
  total_deaths: 'cumulative_deaths',
  new_deaths: 'new_deaths',
};

/** Our World in Data codes that are real places, not aggregates. */
export const OWID_PLACES = new Set(['OWID_KOS', 'OWID_CYN']);

/**
 * Our World in Data aggregates, for its layouts that give them no `OWID_` code (newer files name
 * the place column `country`, and some leave the code of aggregates empty).
 */
export const OWID_AGGREGATES = new Set(
  [
    'World',
    'Africa',
    'Asia',
    'Europe',
    'European Union',
    'European Union (27)',
    'North America',
    'South America',
    'Oceania',
    'High-income countries',
    'Upper-middle-income countries',
    'Lower-middle-income countries',
    'Low-income countries',
    'High income',
    'Upper middle income',
    'Lower middle income',
    'Low income',
    'Asia excl. China',
    'World excl. China',
    'World excl. China and South Korea',
    'World excl. China, South Korea, Japan and Singapore',
  ].map((name) => name.toLowerCase()),
);

/** Columns only Our World in Data's files have (the trimmed format has none of them). */
const OWID_MARKERS = /^(iso_code|code|continent|population|.+_smoothed|.+_per_million)$/;

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Recognises the file by its header, columns in any order and any letter case, extra columns
 * ignored: the WHO's (`Date_reported,Country_code,Country,...,Cumulative_deaths`), Our World in
 * Data's (`location` or, in newer files, `country`, with `iso_code`/`code`...), or the trimmed one
 * (`date,country,total_cases,...`).
 */
export function detectFormat(header: string[]): CsvFormat {
  const names = header.map((h) => h.trim().toLowerCase());
  const index = (name: string) => names.indexOf(name);
  const has = (columns: readonly string[]) => columns.every((c) => index(c) >= 0);
  if (has(Object.values(WHO_COLUMNS))) {
    return rowReader('WHO', WHO_COLUMNS, index, index('country_code'));
  }
  const place = index('location') >= 0 ? 'location' : 'country';
  const columns = { ...WHO_COLUMNS, date: 'date', country: place } as typeof WHO_COLUMNS;
  for (const figure of FIGURES) columns[figure] = figure;
  if (has(Object.values(columns))) {
    if (place === 'location' || names.some((n) => OWID_MARKERS.test(n))) {
      const code = index('iso_code') >= 0 ? index('iso_code') : index('code');
      return rowReader(
        'Our World in Data',
        columns,
        index,
        code,
        owidAggregate(code, index(place)),
      );
    }
    return rowReader('trimmed', columns, index);
  }
  throw new ImportError(
    `unrecognised CSV header: expected the columns ${TRIMMED_COLUMNS.join(',')}, ` +
      `the Our World in Data columns location (or country),date,${FIGURES.join(',')}, ` +
      `or the WHO columns Date_reported,Country_code,Country,New_cases,Cumulative_cases,New_deaths,Cumulative_deaths`,
  );
}

function owidAggregate(codeColumn: number, placeColumn: number): (cells: string[]) => boolean {
  return (cells) => {
    const code = codeColumn >= 0 ? (cells[codeColumn] ?? '').trim() : '';
    if (code.startsWith('OWID_')) return !OWID_PLACES.has(code);
    return OWID_AGGREGATES.has((cells[placeColumn] ?? '').trim().toLowerCase());
  };
}

function rowReader(
  name: string,
  columns: typeof WHO_COLUMNS,
  index: (name: string) => number,
  codeColumn = -1,
  aggregate: (cells: string[]) => boolean = () => false,
): CsvFormat {
  const dateColumn = index(columns.date);
  const countryColumn = index(columns.country);
  const figureColumns = FIGURES.map((f) => [f, index(columns[f])] as const);
  return {
    name,
    read(cells) {
      if (aggregate(cells)) return { kind: 'skip', reason: 'aggregate' };
      const problems: string[] = [];
      const figures: Partial<Figures> = {};
      let reported = false;
      for (const [field, column] of figureColumns) {
        const cell = (cells[column] ?? '').trim();
        if (cell === '') continue;
        reported = true;
        if (NUMBER.test(cell)) figures[field] = Number(cell);
        else problems.push(`${field} : « ${cell.slice(0, 40)} » n'est pas un nombre`);
      }
      const date = (cells[dateColumn] ?? '').trim();
      const country = (cells[countryColumn] ?? '').trim();
      if (!reported || problems.length) {
        // A row with figures gets its date and country checked with them, once filled.
        const where = [apiDateProblem(date, true, 'date'), countryNameProblem(country, 'country')];
        problems.push(...where.filter((p): p is string => p !== undefined));
      }
      if (problems.length) return { kind: 'invalid', problems };
      if (!reported) return { kind: 'skip', reason: 'not-reported' };
      const code = codeColumn >= 0 ? (cells[codeColumn] ?? '').trim() || undefined : undefined;
      return { kind: 'row', row: { date, country, code, figures } };
    },
  };
}

export { csvField } from '@app/common';
