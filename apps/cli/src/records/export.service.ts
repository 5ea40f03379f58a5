import { Injectable } from '@nestjs/common';
import { once } from 'node:events';
import { InjectDisease } from '@app/common';
import { countryLookupKey } from '@app/countries';
import {
  ListFilter,
  ListFormat,
  RECORD_COLUMNS,
  DiseaseDefinition,
  StoredRecord,
  listChunks,
} from '@app/diseases';
import { RecordReadsRepository } from '@app/database';
import { CliError } from '../cli-error';
import { TRIMMED_COLUMNS, csvField } from '@app/importer';

const PAGE = 5000;

/**
 * Writes one disease's records, page by page, oldest first (by date, then id). CSV (the default)
 * is the trimmed format that `import` reads back
 * (`date,country,total_cases,new_cases,total_deaths,new_deaths`, LF line ends): an import gives
 * the records new ids in the order of the file, so records of the same date keep their order,
 * which the API's lists use (`date` then `id`, descending). `json` and `ndjson` write the records
 * as the API's lists do (with their ids), by the same writer.
 */
@Injectable()
export class ExportService {
  /** Each disease's read queries, by key. */
  private readonly repositories: Map<string, RecordReadsRepository>;

  constructor(
    @InjectDisease(RecordReadsRepository, 'covid') covid: RecordReadsRepository,
    @InjectDisease(RecordReadsRepository, 'mpox') mpox: RecordReadsRepository,
  ) {
    this.repositories = new Map([
      ['covid', covid],
      ['mpox', mpox],
    ]);
  }

  async run(
    disease: DiseaseDefinition,
    out: NodeJS.WritableStream,
    country?: string,
    format: ListFormat = 'csv',
  ): Promise<number> {
    const found = this.repositories.get(disease.key);
    if (found === undefined) throw new CliError(`no disease ${disease.key}`);
    const repository = found;
    const filter: ListFilter = {
      countryKey: country === undefined ? undefined : countryLookupKey(country),
      limit: Number.MAX_SAFE_INTEGER,
      offset: 0,
    };
    let count = 0;
    async function* checked(): AsyncGenerator<StoredRecord[]> {
      let first = true;
      for await (const page of repository.pages(filter, PAGE, { order: 'asc' })) {
        if (first && page.length === 0 && country !== undefined) {
          throw new CliError(`no ${disease.key} records for country "${country}"`);
        }
        first = false;
        count += page.length;
        yield page;
      }
    }
    const chunks =
      format === 'csv' ? trimmedCsv(checked()) : listChunks(format, RECORD_COLUMNS, checked());
    for await (const chunk of chunks) {
      if (chunk !== '') await write(out, chunk);
    }
    return count;
  }
}

/** The header once the first page is read (an unknown country writes nothing), then the rows. */
async function* trimmedCsv(pages: AsyncIterable<StoredRecord[]>): AsyncGenerator<string> {
  let started = false;
  for await (const page of pages) {
    if (!started) {
      started = true;
      yield `${TRIMMED_COLUMNS.join(',')}\n`;
    }
    if (page.length > 0) yield page.map(csvLine).join('');
  }
}

function csvLine(r: StoredRecord): string {
  const fields = [r.date, r.country, r.total_cases, r.new_cases, r.total_deaths, r.new_deaths];
  return `${fields.map(csvField).join(',')}\n`;
}

async function write(out: NodeJS.WritableStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
