import { countryNameProblem, isListFormat } from '@app/diseases';
import { CliError } from '../cli-error';
import { withService } from '../cli-context';
import { interruptible, signalExitCode } from '../interruption';
import {
  DEFAULT_DOWNLOAD,
  FILL_KINDS,
  FillKind,
  FileImportService,
  ImportSummary,
  POPULATION_DATASET,
  PopulationImportService,
  PopulationImport,
  SKIP_REASONS,
  UrlImportService,
  isUrl,
} from '@app/importer';
import { ExportService } from './export.service';
import { datasetDisease, diseaseNamed } from './disease-argument';
import { createProgress } from './progress-bar';

/*
 * What `import` and `export` do, loaded only when one of them runs (records.command.ts declares
 * them): the importer, the services and the database stay unloaded for `--help`.
 */

const out = (line: string) => process.stdout.write(`${line}\n`);

function printSummary(summary: ImportSummary, seconds: number): void {
  const skipped = Object.values(summary.skipped).reduce((a, b) => a + b, 0);
  const written = summary.inserted + summary.updated;
  out(`format:    ${summary.format}`);
  out(`rows read: ${summary.rowsRead}`);
  out(`inserted:  ${summary.inserted}`);
  out(`updated:   ${summary.updated}`);
  out(`unchanged: ${summary.unchanged}`);
  out(`skipped:   ${skipped}`);
  for (const [reason, count] of Object.entries(summary.skipped)) {
    if (count > 0) out(`  ${count} ${SKIP_REASONS[reason as keyof typeof SKIP_REASONS]}`);
  }
  printFills(summary);
  printNames(summary);
  // Stored figures changed after their first publication (docs/corrections.md); a first load
  // corrects none, and says nothing of it.
  if (summary.corrected !== undefined && summary.corrected > 0) {
    out(`corrected: ${summary.corrected.toLocaleString('en-US')} figures corrected`);
  }
  const rate = seconds > 0 ? Math.round(summary.rowsRead / seconds) : summary.rowsRead;
  out(`time:      ${seconds.toFixed(1)} s (${rate} rows/s, ${written} written)`);
}

/** Every blank cell filled, by field and rule: nothing is filled silently. */
function printFills(summary: ImportSummary): void {
  const lines: string[] = [];
  let cells = 0;
  for (const [field, kinds] of Object.entries(summary.filled)) {
    for (const [kind, count] of Object.entries(kinds)) {
      cells += count;
      lines.push(`  ${count} ${field}: ${FILL_KINDS[kind as FillKind]}`);
    }
  }
  if (!cells) return;
  out(`filled:    ${cells} blank cells`);
  lines.forEach(out);
}

/** Source names stored under a country's canonical name, and places that are not countries. */
function printNames(summary: ImportSummary): void {
  const renamed = Object.entries(summary.renamed);
  if (renamed.length) {
    const rows = renamed.reduce((sum, [, r]) => sum + r.rows, 0);
    out(`renamed:   ${rows} rows to the canonical country name`);
    for (const [from, { to, rows: count }] of renamed) out(`  ${count} ${from} -> ${to}`);
  }
  const others = Object.entries(summary.unrecognised);
  if (others.length) {
    out(`not countries, kept as named: ${others.length}`);
    for (const [name, count] of others) out(`  ${count} ${name}`);
  }
}

/** An interrupted import wrote nothing: its transaction was never committed. */
function interruption(summary: ImportSummary): string {
  return `interrupted by ${summary.interrupted}: nothing was imported; importing the file again imports it`;
}

/** Prints an import's summary, then fails if it did not import every row of the file. */
function reportImport(summary: ImportSummary, seconds: number): void {
  printSummary(summary, seconds);
  if (summary.interrupted) {
    throw new CliError(interruption(summary), signalExitCode(summary.interrupted));
  }
  if (summary.failure) throw new CliError(summary.failure);
}

/** Every row of the table accounted for: written, or skipped with the places named. */
function printPopulationSummary(result: PopulationImport): void {
  if (result.kind === 'unchanged') {
    out(`unchanged: ${result.reason}; nothing written`);
    return;
  }
  const { summary } = result;
  out('format:    population (entity,iso_code,year,population)');
  out(`rows read: ${summary.rowsRead}`);
  out(`inserted:  ${summary.inserted}`);
  out(`updated:   ${summary.updated}`);
  out(`unchanged: ${summary.unchanged}`);
  out(`skipped:   ${summary.rowsRead - summary.matched}`);
  const named = (title: string, counts: Record<string, number>) => {
    const entries = Object.entries(counts);
    if (entries.length === 0) return;
    out(`  ${entries.reduce((sum, [, n]) => sum + n, 0)} ${title}:`);
    for (const [name, n] of entries) out(`    ${n} ${name}`);
  };
  named('Our World in Data aggregates (not countries)', summary.aggregates);
  named('places not matched to a country', summary.unmatched);
  named('country and year given again (first row kept)', summary.duplicates);
  if (summary.notReported > 0) out(`  ${summary.notReported} rows without a population`);
}

function importPopulation(file: string, timeout: number): Promise<void> {
  return withService(
    PopulationImportService,
    async (importer) => {
      const download = { ...DEFAULT_DOWNLOAD, timeoutMs: timeout * 1000 };
      const result = await interruptible((signal) => importer.run(file, download, signal));
      printPopulationSummary(result);
    },
    'create',
  );
}

/** `import <dataset> <file>` (declared in records.command.ts). */
export function importRecords(
  dataset: string,
  file: string,
  options: { timeout?: string },
): Promise<void> {
  const given = options.timeout ?? String(DEFAULT_DOWNLOAD.timeoutMs / 1000);
  const timeout = Number(given);
  if (!(timeout > 0 && timeout <= 3600)) {
    throw CliError.usage(`invalid --timeout ${given}: seconds, above 0 and at most 3600`);
  }
  if (dataset === POPULATION_DATASET) return importPopulation(file, timeout);
  const definition = datasetDisease(dataset);
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  if (isUrl(file)) {
    return withService(
      UrlImportService,
      async (importer) => {
        const download = { ...DEFAULT_DOWNLOAD, timeoutMs: timeout * 1000 };
        const result = await interruptible((signal) =>
          importer.run(definition, file, download, createProgress(), signal),
        );
        if (result.kind === 'unchanged') out(`unchanged: ${result.reason}; nothing written`);
        else reportImport(result.summary, seconds());
      },
      'create',
    );
  }
  return withService(
    FileImportService,
    async (importer) => {
      const summary = await interruptible((signal) =>
        importer.run(definition, file, createProgress(), signal),
      );
      reportImport(summary, seconds());
    },
    'create',
  );
}

/** `export <disease>` (declared in records.command.ts). */
export function exportRecords(
  disease: string,
  options: { country?: string; format: string },
): Promise<void> {
  const definition = diseaseNamed(disease);
  const format = options.format;
  if (!isListFormat(format)) {
    throw CliError.usage(`invalid --format ${JSON.stringify(format)}: csv, ndjson or json`);
  }
  if (options.country !== undefined && countryNameProblem(options.country, 'country')) {
    throw CliError.usage(
      `invalid --country ${JSON.stringify(options.country)}: 1 to 100 characters once trimmed, no control characters`,
    );
  }
  return withService(ExportService, async (exporter) => {
    await exporter.run(definition, process.stdout, options.country, format);
  });
}
