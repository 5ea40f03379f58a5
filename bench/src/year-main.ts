import 'reflect-metadata';
import { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { positive } from './bench-options';
import { BenchDb } from './bench-database';
import { productionStartCommand } from './start-command';
import { formatYearOfSyncs } from './year-report';
import { YearOfSyncsStats, runYearOfSyncs } from './year-run';

/**
 * The bench's "a year of syncs" section alone (`npm run bench:year`): while working on the
 * history's costs, without the half hour of the whole bench. Prints the section's table per
 * database; exits 1 when a target is missed.
 */
interface Options {
  db: 'sqlite' | 'mysql' | 'both';
  yearImports: number;
  yearReads: number;
  port: number;
  country: string;
  apiMain: string;
  json?: string;
}

async function main(): Promise<void> {
  const options = new Command()
    .option('--db <db>', 'sqlite, mysql or both', 'both')
    .option('--year-imports <n>', 'revised copies imported', positive, 100)
    .option('--year-reads <n>', 'reads of each URL on each store', positive, 30)
    .option('--port <p>', 'API port', positive, 3300)
    .option('--country <name>', 'country of the per-country reads', 'France')
    .option('--api-main <file>', 'the API build', productionStartCommand().main)
    .option('--json <file>', "the section's figures per database, each import's time included")
    .parse(process.argv)
    .opts<Options>();
  const dbs: BenchDb[] = options.db === 'both' ? ['sqlite', 'mysql'] : [options.db];
  let met = true;
  const results: Partial<Record<BenchDb, YearOfSyncsStats>> = {};
  for (const db of dbs) {
    const stats = await runYearOfSyncs(
      db,
      options.port,
      resolve(options.apiMain),
      { copies: options.yearImports, reads: options.yearReads, country: options.country },
      (message) => void process.stderr.write(`[${db}] ${message}\n`),
    );
    process.stdout.write(`\n### ${db}\n\n${formatYearOfSyncs(stats).join('\n')}\n`);
    met &&= stats.met;
    results[db] = stats;
    if (options.json) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
  }
  process.exitCode = met ? 0 : 1;
}

void main();
