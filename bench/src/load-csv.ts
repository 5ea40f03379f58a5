import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { RecordValues, SeriesRepository } from '@app/series';

export interface LoadResult {
  rows: number;
  inserted: number;
  updated: number;
  seconds: number;
  rowsPerSecond: number;
}

interface CsvRow {
  date: string;
  country: string;
  total_cases: string;
  new_cases: string;
  total_deaths: string;
  new_deaths: string;
}

/**
 * Loads one gzip-compressed CSV of the shared data sets (header
 * `date,country,total_cases,new_cases,total_deaths,new_deaths`) through
 * `SeriesRepository.upsertMany`, in batches: the code path of the admin CLI import. Kept as this one
 * function so that it can be swapped for the CLI import later. Empty cells count as 0.
 */
export async function loadCsv(
  repository: SeriesRepository,
  file: string,
  batchSize = 5000,
): Promise<LoadResult> {
  const started = performance.now();
  const parser = createReadStream(file)
    .pipe(createGunzip())
    .pipe(parse({ columns: true }));
  const total = { rows: 0, inserted: 0, updated: 0 };
  let batch: RecordValues[] = [];
  const flush = async (): Promise<void> => {
    const { inserted, updated } = await repository.upsertMany(batch);
    total.inserted += inserted;
    total.updated += updated;
    batch = [];
  };
  for await (const row of parser as AsyncIterable<CsvRow>) {
    batch.push({
      date: row.date,
      country: row.country,
      total_cases: Number(row.total_cases || 0),
      new_cases: Number(row.new_cases || 0),
      total_deaths: Number(row.total_deaths || 0),
      new_deaths: Number(row.new_deaths || 0),
    });
    total.rows++;
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  const seconds = (performance.now() - started) / 1000;
  return { ...total, seconds, rowsPerSecond: total.rows / seconds };
}
