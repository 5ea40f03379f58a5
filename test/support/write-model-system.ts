import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FileImportService, QUIET_PROGRESS } from '@app/importer';
import { COVID_DISEASE } from '@app/diseases';
import { CliModule } from '@cli/cli.module';
import { RecordHistoryService } from '@cli/records/record-history.service';
import { DEFAULT_API_TOKENS, TOKENS, TestApp, bootTestApp } from './test-app';
import { Values } from './write-model';

/*
 * The system the model-based test of the write paths drives: the API on a throw-away database
 * (HTTP, three write clients) and, in the same process, the admin command line's services
 * (`import`, `restore`, `revert`, `prune-history`) on their own connection, as `withService`
 * builds them; and the few ways the test writes to and reads from it.
 */

export const CLIENTS = ['alice', 'bob', 'mallory'] as const;
export type Client = (typeof CLIENTS)[number];
const MALLORY = 'mallory-token-0123456789abcdef';
const TOKEN: Record<Client, string> = { alice: TOKENS.alice, bob: TOKENS.bob, mallory: MALLORY };

export const as = (client: Client) => ({ Authorization: `Bearer ${TOKEN[client]}` });

export interface Real {
  t: TestApp;
  context: INestApplicationContext;
  history: RecordHistoryService;
  importer: FileImportService;
  dir: string;
  files: number;
}

/** The API on a fresh database and the command line's services beside it. */
export async function startSystem(): Promise<Real> {
  const t = await bootTestApp({
    API_TOKENS: `${DEFAULT_API_TOKENS},mallory:${MALLORY}`,
    // The command line's writes reach this API only through Redis or once answers expire.
    CACHE_TTL_MS: '0',
  });
  try {
    const context = await NestFactory.createApplicationContext(CliModule.forRoot(t.config), {
      logger: false,
      abortOnError: false,
    });
    return {
      t,
      context,
      history: context.get(RecordHistoryService),
      importer: context.get(FileImportService),
      dir: mkdtempSync(join(tmpdir(), 'write-model-')),
      files: 0,
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

export async function stopSystem(real: Real): Promise<void> {
  await real.context.close();
  await real.t.close();
  rmSync(real.dir, { recursive: true, force: true });
}

const CSV_HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';

export async function importRows(real: Real, rows: Values[]): Promise<Observation> {
  const file = join(real.dir, `revised-${++real.files}.csv`);
  const lines = rows.map(
    (r) =>
      `${r.date},${r.country},${r.total_cases},${r.new_cases},${r.total_deaths},${r.new_deaths}`,
  );
  writeFileSync(file, [CSV_HEADER, ...lines].join('\n') + '\n');
  try {
    const summary = await real.importer.run(COVID_DISEASE, file, QUIET_PROGRESS);
    if (summary.failure) return { error: summary.failure };
    const { inserted, updated, unchanged } = summary;
    return { counts: { inserted, updated, unchanged } };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

export interface Observation {
  status?: number;
  body?: unknown;
  error?: string;
  counts?: { inserted: number; updated: number; unchanged: number };
  changed?: number[];
  restored?: { kind: string; from: number };
  removed?: number;
}

export async function http(
  real: Real,
  client: Client,
  method: 'post' | 'put' | 'delete',
  path: string,
  body?: unknown,
): Promise<Observation> {
  const res = await real.t.http[method](`/api/covid/data${path}`)
    .set(as(client))
    .send(body as object);
  return { status: res.status, body: res.body as unknown };
}

export interface LiveRecord extends Values {
  id: number;
}

export async function list(real: Real, asOf?: string): Promise<{ status: number; body: unknown }> {
  const query = asOf ? `&as_of=${encodeURIComponent(asOf)}` : '';
  const res = await real.t.http.get(`/api/covid/data?limit=100000000${query}`).set(as('alice'));
  return { status: res.status, body: res.body as unknown };
}
