import { Command } from 'commander';

/** What the commands do, loaded when one runs: `--help` loads neither Nest nor the database. */
const actions = () => import('./records.actions');

/** `import covid|mpox|population <file>` and `export covid|mpox [--country X]`. */
export function dataCommands(): Command[] {
  const importCommand = new Command('import')
    .description(
      'insert or update records from a CSV file or an http(s) URL (trimmed, Our World in Data or WHO format, gzip or not)',
    )
    .argument(
      '<dataset>',
      'covid, mpox or population (a population table, Our World in Data layout)',
    )
    .argument('<file>', 'a .csv or .csv.gz file, or an http:// or https:// URL')
    .option(
      '--timeout <seconds>',
      // Written out rather than taken from the importer's DEFAULT_DOWNLOAD, which --help does not
      // load; test/slow/operations/cli-launcher.e2e-spec.ts holds the two equal.
      'URL only: longest wait for the server to connect, answer or send more bytes (default: 30)',
    )
    .action(async (dataset: string, file: string, options: { timeout?: string }) =>
      (await actions()).importRecords(dataset, file, options),
    );

  const exportCommand = new Command('export')
    .description(
      'write records to stdout, oldest first: CSV (the format that import reads back), or JSON or NDJSON as the API lists them',
    )
    .argument('<disease>', 'covid or mpox')
    .option('--country <name>', 'only this country (matched ignoring case)')
    .option('--format <format>', 'csv, ndjson or json', 'csv')
    .action(async (disease: string, options: { country?: string; format: string }) =>
      (await actions()).exportRecords(disease, options),
    );

  return [importCommand, exportCommand];
}
