import { resolveCountry } from '@app/countries';
import { withSourceNames } from '@app/common';
import { PopulationRow } from '@app/database';
import { CsvRecord } from './csv-records';

/** What a population import did with the table's rows, by kind, with the places named. */
export interface PopulationSummary {
  rowsRead: number;
  /** Rows matched to a country, to be written. */
  matched: number;
  /** Our World in Data's aggregates (`OWID_*` codes other than Kosovo's): places that are not countries. */
  aggregates: Record<string, number>;
  /** Places the country directory does not know, by name as given. */
  unmatched: Record<string, number>;
  /** A country and year given again (by another name or code): the first row is kept. */
  duplicates: Record<string, number>;
  /** Rows whose population cell is empty. */
  notReported: number;
  /** Rows that cannot be read, with their line: the import then writes nothing. */
  invalid: string[];
}

const REQUIRED = ['entity', 'iso_code', 'year', 'population'] as const;

/** The column index of each field of Our World in Data's layout, or the problem with the header. */
export function populationColumns(
  header: string[],
): { columns: Record<(typeof REQUIRED)[number] | 'source', number> } | { problem: string } {
  const names = header.map((cell) => cell.trim().toLowerCase());
  const missing = REQUIRED.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    return {
      problem:
        `unrecognised population header: expected entity,iso_code,year,population ` +
        `(and optionally source), missing ${missing.join(', ')}`,
    };
  }
  return {
    columns: {
      entity: names.indexOf('entity'),
      iso_code: names.indexOf('iso_code'),
      year: names.indexOf('year'),
      population: names.indexOf('population'),
      source: names.indexOf('source'),
    },
  };
}

/** The earliest year a row may have; the latest is next year (a projection published early). */
export const FIRST_YEAR = 1800;
/**
 * A population in plain digits, above 0: OWID's `67000000.0` is read, but not `0x10`, `1e3`,
 * `-0`, `+5`, `012` or `1.5`, which say a damaged or misread file rather than a head count.
 */
const POPULATION = /^[1-9]\d*(?:\.0+)?$/;

const count = (counts: Record<string, number>, name: string) =>
  (counts[name] = (counts[name] ?? 0) + 1);

/**
 * The rows of a population table (its header first) matched to countries: by ISO code first,
 * then by name. Aggregates, unknown places and repeated country-years are counted and named;
 * `defaultSource` names the table when it has no `source` column (or an empty cell).
 */
export function populationRows(
  records: Iterable<CsvRecord>,
  defaultSource: string,
): { rows: PopulationRow[]; summary: PopulationSummary } | { problem: string } {
  const table = new PopulationTable(defaultSource);
  for (const record of records) {
    const problem = table.add(record);
    if (problem) return { problem };
  }
  return table.result();
}

/**
 * `populationRows` one record at a time, as the file is parsed: only the rows matched to a
 * country are kept (one per country and year), not the file's records.
 */
export class PopulationTable {
  private columns?: Record<(typeof REQUIRED)[number] | 'source', number>;
  private readonly rows = new Map<string, PopulationRow>();
  readonly summary: PopulationSummary = {
    rowsRead: 0,
    matched: 0,
    aggregates: {},
    unmatched: {},
    duplicates: {},
    notReported: 0,
    invalid: [],
  };

  constructor(private readonly defaultSource: string) {}

  /** Takes the header, then each data row; answers the problem of a header it cannot read. */
  add({ cells, line }: CsvRecord): string | undefined {
    if (!this.columns) {
      const found = populationColumns(cells);
      if ('problem' in found) return found.problem;
      this.columns = found.columns;
      return undefined;
    }
    this.row(this.columns, cells, line);
    return undefined;
  }

  /** The matched rows and the counts, once every record was added. */
  result(): { rows: PopulationRow[]; summary: PopulationSummary } | { problem: string } {
    if (!this.columns) return { problem: 'the file is empty' };
    return { rows: [...this.rows.values()], summary: this.summary };
  }

  private row(
    columns: Record<(typeof REQUIRED)[number] | 'source', number>,
    cells: string[],
    line: number,
  ): void {
    const summary = this.summary;
    summary.rowsRead++;
    const cell = (index: number) => (index >= 0 ? (cells[index] ?? '').trim() : '');
    const name = cell(columns.entity);
    const code = cell(columns.iso_code);
    const yearText = cell(columns.year);
    const populationText = cell(columns.population);
    const year = Number(yearText);
    const lastYear = new Date().getUTCFullYear() + 1;
    if (!/^\d{4}$/.test(yearText) || year < FIRST_YEAR || year > lastYear) {
      summary.invalid.push(
        `line ${line}: year ${JSON.stringify(yearText.slice(0, 40))} is not a year from ${FIRST_YEAR} to ${lastYear}`,
      );
      return;
    }
    if (populationText === '') {
      summary.notReported++;
      return;
    }
    const population = Number(populationText);
    if (!POPULATION.test(populationText) || population > Number.MAX_SAFE_INTEGER) {
      summary.invalid.push(
        `line ${line}: population ${JSON.stringify(populationText.slice(0, 40))} is not a whole number of people above 0`,
      );
      return;
    }
    const identity = (code && resolveCountry(code)) || (name ? resolveCountry(name) : undefined);
    if (!identity) {
      const label = name || code || '(no name)';
      count(/^OWID_/i.test(code) ? summary.aggregates : summary.unmatched, label);
      return;
    }
    const key = `${identity.iso3} ${year}`;
    if (this.rows.has(key)) {
      count(summary.duplicates, `${name || code} (${identity.iso3} ${year})`);
      return;
    }
    summary.matched++;
    this.rows.set(key, {
      iso3: identity.iso3,
      year,
      country: identity.name,
      population,
      source: shownSource(cell(columns.source) || this.defaultSource),
    });
  }
}

/** The `population.source` column's size. */
export const POPULATION_SOURCE_LENGTH = 200;

/**
 * A table's `source` as `/api/population` shows it to anyone: its URLs of any scheme and its
 * absolute paths reduced to what `sourceName` keeps (no credentials, query string, fragment or
 * folder), then cut to the column's size.
 */
export function shownSource(text: string): string {
  return withSourceNames(text).slice(0, POPULATION_SOURCE_LENGTH);
}
