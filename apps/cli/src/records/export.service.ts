import { Injectable } from '@nestjs/common';
import { once } from 'node:events';
import { DataSource } from 'typeorm';
import { countryLookupKey } from '@app/countries';
import { ListFilter, SeriesDefinition, SeriesRepository, SeriesRecord } from '@app/series';
import { CliError } from '../cli-error';
import { TRIMMED_COLUMNS, csvField } from '@app/importer';

const PAGE = 5000;

/**
 * Writes one disease's records as CSV in the trimmed format that `import` reads back
 * (`date,country,total_cases,new_cases,total_deaths,new_deaths`), page by page, oldest first (by
 * date, then id): an import gives the records new ids in the order of the file, so records of the
 * same date keep their order, which the API's lists use (`date` then `id`, descending).
 */
@Injectable()
export class ExportService {
  constructor(private readonly dataSource: DataSource) {}

  async run(
    series: SeriesDefinition,
    out: NodeJS.WritableStream,
    country?: string,
  ): Promise<number> {
    const repository = new SeriesRepository(this.dataSource, series);
    const filter: ListFilter = {
      countryKey: country === undefined ? undefined : countryLookupKey(country),
      limit: Number.MAX_SAFE_INTEGER,
      offset: 0,
    };
    let count = 0;
    let started = false;
    for await (const page of repository.pages(filter, PAGE, { order: 'asc' })) {
      if (!started) {
        started = true;
        if (page.length === 0 && country !== undefined) {
          throw new CliError(`no ${series.key} records for country "${country}"`);
        }
        await write(out, `${TRIMMED_COLUMNS.join(',')}\n`);
      }
      if (page.length > 0) await write(out, page.map(csvLine).join(''));
      count += page.length;
    }
    return count;
  }
}

function csvLine(r: SeriesRecord): string {
  const fields = [r.date, r.country, r.total_cases, r.new_cases, r.total_deaths, r.new_deaths];
  return `${fields.map(csvField).join(',')}\n`;
}

async function write(out: NodeJS.WritableStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
