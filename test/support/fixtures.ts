import { DataSource } from 'typeorm';
import { RecordReverter, RecordValues, RecordWriter, DiseaseDefinition } from '@app/diseases';
import {
  BulkLoadRepository,
  RecordWritesRepository,
  RevisionRepository,
  SqlRunner,
} from '@app/database';

/** A valid record body; override any field. */
export function recordBody(
  overrides: Partial<Record<keyof RecordValues, unknown>> = {},
): Record<string, unknown> {
  return {
    date: '2021-03-01',
    country: 'France',
    total_cases: 3_800_000,
    new_cases: 20_000,
    total_deaths: 86_000,
    new_deaths: 250,
    ...overrides,
  };
}

export const DISEASE_KEYS = ['covid', 'mpox'] as const;

/** The keys of a returned record, in order. */
export const RECORD_KEYS = [
  'id',
  'date',
  'country',
  'total_cases',
  'new_cases',
  'total_deaths',
  'new_deaths',
];

/** Who writes when a test calls a repository directly (the revisions say so). */
export const TEST_ORIGIN = { actor: 'test:setup' };

/**
 * The write path of a series with a silent notice: records written as another instance or the
 * command line would write them, no read cache of the app under test dropped.
 */
export function seedWriter(
  dataSource: DataSource,
  disease: DiseaseDefinition,
  deadlineMs?: number,
): RecordWriter {
  const sql = new SqlRunner(dataSource, deadlineMs);
  const revisions = new RevisionRepository(sql, disease);
  const writes = new RecordWritesRepository(sql, disease, revisions);
  return new RecordWriter(
    disease,
    writes,
    new BulkLoadRepository(sql, disease, revisions),
    new RecordReverter(revisions, writes),
    { written: () => undefined },
  );
}

/** An instant strictly between the writes before and after it (revisions are stamped in ms). */
export async function instantBetweenWrites(): Promise<string> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(3);
  const at = new Date().toISOString();
  await sleep(3);
  return at;
}

/**
 * Empties a disease's store behind the API's back (a test's fresh start): its records, every table
 * the writes keep beside them (decision 0036), and, with `history`, its revisions and commits.
 */
export async function emptyStore(
  dataSource: DataSource,
  key: 'covid' | 'mpox',
  { history }: { history: boolean },
): Promise<void> {
  const kept = ['country_summaries', 'region_days', 'corrections', 'corrected_days'];
  const tables = [
    `${key}_data`,
    ...kept.map((table) => `${key}_${table}`),
    ...(history ? [`${key}_revisions`, `${key}_revision_commits`] : []),
  ];
  for (const table of tables) await dataSource.query(`DELETE FROM ${table}`);
}
