import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseConfig } from '@app/config';
import { databaseEnv } from '../../test/support/built-api';
import {
  BENCH_CLIENT,
  BENCH_TOKEN,
  BenchRoute,
  RecordedAnswer,
  createdAnswer,
} from './bench-routes';
import { LoadTarget } from './load-run';
import { BASELINE_MAIN, FASTIFY_REFERENCE_MAIN } from './paths';
import { ServerProcess } from './server-process';

export const AUTH = { authorization: `Bearer ${BENCH_TOKEN}` };

/**
 * The environment of a benchmarked API: production, the bench token, and a rate limit raised out
 * of the way (it still runs).
 */
export function apiEnvironment(
  database: Omit<DatabaseConfig, 'timeoutMs'>,
  port: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...databaseEnv(database),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    API_TOKENS: `${BENCH_CLIENT}:${BENCH_TOKEN}`,
    THROTTLE_LIMIT: '1000000000',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** What the load generator sends to `server` for a read route. */
export function routeTarget(server: ServerProcess, route: BenchRoute): LoadTarget {
  return {
    url: server.url + route.path,
    method: route.method,
    headers: route.auth ? AUTH : undefined,
  };
}

/**
 * Headers not recorded: those Node's HTTP server writes itself or the replaying servers set anyway,
 * and the request id, which the reference servers make anew for each request as the API does.
 */
const UNRECORDED_HEADERS = new Set([
  'connection',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'transfer-encoding',
  'x-request-id',
]);

/** The API's answers to the benchmarked routes, fetched once, for the baseline to replay. */
async function recordAnswers(api: ServerProcess, paths: string[]): Promise<RecordedAnswer[]> {
  const answers = [createdAnswer()];
  for (const url of paths) {
    const res = await fetch(api.url + url, { headers: AUTH });
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    answers.push({
      method: 'GET',
      url,
      status: res.status,
      contentType: res.headers.get('content-type') ?? 'application/json',
      body: await res.text(),
      headers: Object.fromEntries(
        [...res.headers].filter(([name]) => !UNRECORDED_HEADERS.has(name)),
      ),
    });
  }
  return answers;
}

/** Records what `api` answers to `paths` into `workDir`, for the replaying servers; the file. */
export async function recordAnswersFile(
  api: ServerProcess,
  paths: string[],
  workDir: string,
): Promise<string> {
  const answersFile = join(workDir, 'answers.json');
  writeFileSync(answersFile, JSON.stringify(await recordAnswers(api, paths)));
  return answersFile;
}

/**
 * Servers that replay recorded answers from memory: `baseline`, bare `node:http` with the content
 * type only (the bench's baseline); `node-headers`, the same server sending every header the API
 * sent as well (a fresh request id each time); `fastify-headers`, bare Fastify (the API's version,
 * no Nest) sending the same headers.
 */
export type ReplayKind = 'baseline' | 'node-headers' | 'fastify-headers';

/** Starts a replaying server on `port` and waits until it answers. */
export async function startReplay(
  kind: ReplayKind,
  answersFile: string,
  port: number,
): Promise<ServerProcess> {
  const server =
    kind === 'fastify-headers'
      ? ServerProcess.start(kind, FASTIFY_REFERENCE_MAIN, port, {}, [String(port), answersFile])
      : ServerProcess.start(kind, BASELINE_MAIN, port, {}, [
          String(port),
          answersFile,
          ...(kind === 'node-headers' ? ['--api-headers'] : []),
        ]);
  await server.ready('/health');
  return server;
}

/**
 * Starts the bare `node:http` baseline on `port`, replaying what `api` answers to `paths` (the
 * answers are kept in `workDir`), and waits until it answers.
 */
export async function startBaseline(
  api: ServerProcess,
  paths: string[],
  port: number,
  workDir: string,
): Promise<ServerProcess> {
  return startReplay('baseline', await recordAnswersFile(api, paths, workDir), port);
}
