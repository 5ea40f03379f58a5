import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

/** A row of a revised copy: its date, its country as the file spells it, its new `total_cases`. */
export interface RevisedRow {
  date: string;
  country: string;
  total_cases: number;
}

/** The seed of `writeRevisedCopy` unless told: every run revises the same rows. */
export const REVISED_COPY_SEED = 20_230_309;

/** A CSV cell as written, without its quotes (`"Korea, South"` is `Korea, South`). */
const unquoted = (cell: string): string =>
  cell.startsWith('"') && cell.endsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;

/**
 * Writes to `target` (gzip) a copy of the CSV file `source` (gzip, `date,country,<four figures>`)
 * in which a share of the rows, picked at random from `seed` (the same rows for the same seed,
 * scattered over the file), has its `total_cases` one higher; `share` 1 revises every row. Fields
 * are counted from the end of the line (four figures), so a quoted country with a comma is kept
 * whole. Answers the rows revised. A copy of a copy with another seed revises other rows and keeps
 * the earlier revisions: a source revising its series again and again.
 */
export function writeRevisedCopy(
  source: string,
  target: string,
  share: number,
  seed = REVISED_COPY_SEED,
): RevisedRow[] {
  const lines = gunzipSync(readFileSync(source)).toString('utf8').split('\n');
  const revised: RevisedRow[] = [];
  let state = seed;
  const out = lines.map((line, i) => {
    if (i === 0 || line === '') return line;
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 1;
    if (share < 1 && (state % 1_000_000) / 1_000_000 >= share) return line;
    const fields = line.split(',');
    const at = fields.length - 4;
    const total = Number(fields[at]) + 1;
    fields[at] = String(total);
    revised.push({
      date: fields[0],
      country: unquoted(fields.slice(1, at).join(',')),
      total_cases: total,
    });
    return fields.join(',');
  });
  writeFileSync(target, gzipSync(out.join('\n')));
  return revised;
}
