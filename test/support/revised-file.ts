import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

/** A row of a revised copy: its date and its new `total_cases`. */
export interface RevisedRow {
  date: string;
  total_cases: number;
}

/**
 * Writes to `target` (gzip) a copy of the CSV file `source` (gzip, `date,country,<four figures>`)
 * in which a share of the rows, picked at random with a fixed seed (the same at every run,
 * scattered over the file), has its `total_cases` one higher; `share` 1 revises every row. Fields
 * are counted from the end of the line (four figures), so a quoted country with a comma is kept
 * whole. Answers the rows revised.
 */
export function writeRevisedCopy(source: string, target: string, share: number): RevisedRow[] {
  const lines = gunzipSync(readFileSync(source)).toString('utf8').split('\n');
  const revised: RevisedRow[] = [];
  let seed = 20_230_309;
  const out = lines.map((line, i) => {
    if (i === 0 || line === '') return line;
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 1;
    if (share < 1 && (seed % 1_000_000) / 1_000_000 >= share) return line;
    const fields = line.split(',');
    const at = fields.length - 4;
    const total = Number(fields[at]) + 1;
    fields[at] = String(total);
    revised.push({ date: fields[0], total_cases: total });
    return fields.join(',');
  });
  writeFileSync(target, gzipSync(out.join('\n')));
  return revised;
}
