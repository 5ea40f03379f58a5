import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import fc from 'fast-check';
import { FileImportService, QUIET_PROGRESS } from '@app/importer';
import { COVID_SERIES } from '@app/series';
import { CliModule } from '@cli/cli.module';
import { RecordHistoryService } from '@cli/records/record-history.service';
import { instantBetweenWrites } from './fixtures';
import { DEFAULT_API_TOKENS, TOKENS, TestApp, bootTestApp } from './test-app';
import {
  Mark,
  ModelState,
  Values,
  adopt,
  applyRevert,
  cloneState,
  emptyState,
  keptRevisions,
  keyOf,
  ordered,
  planRevert,
  postAnswer,
  prune,
  put,
  remove,
  restore,
  sameValues,
  upsert,
  write,
} from './write-model';

/*
 * The commands of the model-based test of the write paths, and the system they drive: the API on
 * a throw-away database (HTTP, three write clients) and, in the same process, the admin command
 * line's services (`import`, `restore`, `revert`, `prune-history`) on their own connection, as
 * `withService` builds them. Each command is resolved against the model when it runs (which
 * record, which instant), done on the system, played on the model, then the whole store, the
 * histories of the records it touched and the instant after it are checked.
 */

export const CLIENTS = ['alice', 'bob', 'mallory'] as const;
export type Client = (typeof CLIENTS)[number];
const MALLORY = 'mallory-token-0123456789abcdef';
const TOKEN: Record<Client, string> = { alice: TOKENS.alice, bob: TOKENS.bob, mallory: MALLORY };

const COUNTRIES = [
  'Chile',
  'Peru',
  'Chad',
  'Cuba',
  'Mali',
  'Oman',
  'Fiji',
  'Togo',
  'Niger',
  'Nepal',
  'Yemen',
  'Malta',
];
/** Days per country of the first load (the store a run starts from). */
export const FIRST_LOAD_DAYS = 180;
const NEW_KEYS = 48;

const day = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);

/** The key of a record not in the first load (a small pool, so that keys meet again). */
function newKey(n: number): { country: string; date: string } {
  const i = n % NEW_KEYS;
  return {
    country: COUNTRIES[i % COUNTRIES.length],
    date: day(FIRST_LOAD_DAYS + Math.floor(i / 12)),
  };
}

export interface Figures {
  total_cases: number;
  new_cases: number;
  total_deaths: number;
  new_deaths: number;
}

export interface Model {
  state: ModelState;
  marks: Mark[];
  step: number;
  /** The records the run's writes touched, first touched first: most picks are among them. */
  recent: number[];
}

export interface Real {
  t: TestApp;
  context: INestApplicationContext;
  history: RecordHistoryService;
  importer: FileImportService;
  dir: string;
  files: number;
}

/** The API on a fresh database, the command line's services beside it, the first load done. */
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

async function importRows(real: Real, rows: Values[]): Promise<Observation> {
  const file = join(real.dir, `revised-${++real.files}.csv`);
  const lines = rows.map(
    (r) =>
      `${r.date},${r.country},${r.total_cases},${r.new_cases},${r.total_deaths},${r.new_deaths}`,
  );
  writeFileSync(file, [CSV_HEADER, ...lines].join('\n') + '\n');
  try {
    const summary = await real.importer.run(COVID_SERIES, file, QUIET_PROGRESS);
    if (summary.failure) return { error: summary.failure };
    const { inserted, updated, unchanged } = summary;
    return { counts: { inserted, updated, unchanged } };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The model and the system after the first load (3,000 records, one import), checked. */
export async function firstLoad(real: Real): Promise<Model> {
  const rows = COUNTRIES.flatMap((country, c) =>
    Array.from({ length: FIRST_LOAD_DAYS }, (_, n) => ({
      date: day(n),
      country,
      total_cases: 1000 * c + 10 * n,
      new_cases: 10,
      total_deaths: c + n,
      new_deaths: 1,
    })),
  );
  const model: Model = { state: emptyState(), marks: [], step: 0, recent: [] };
  const obs = await importRows(real, rows);
  const op: Op = {
    text: 'first load',
    touched: [],
    run: () => Promise.resolve(obs),
    apply: importApply(rows),
  };
  await check(model, real, [op], [obs]);
  return model;
}

// ----- observations and operations --------------------------------------------------------------

interface Observation {
  status?: number;
  body?: unknown;
  error?: string;
  counts?: { inserted: number; updated: number; unchanged: number };
  changed?: number[];
  restored?: { kind: string; from: number };
  removed?: number;
}

/** One write resolved against the model: done on the system, then played on the model. */
interface Op {
  text: string;
  /** Records whose history is compared afterwards. */
  touched: number[];
  delayMs?: number;
  run(real: Real): Promise<Observation>;
  /** Plays the write on `s` as the observation says it went; what does not match, if anything. */
  apply(s: ModelState, step: number, obs: Observation): string | undefined;
}

const as = (client: Client) => ({ Authorization: `Bearer ${TOKEN[client]}` });

async function http(
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

const statusMismatch = (text: string, expected: number, obs: Observation) =>
  obs.status === expected
    ? undefined
    : `${text}: expected ${expected}, got ${obs.status} ${JSON.stringify(obs.body ?? obs.error)}`;

function importApply(rows: Values[]): Op['apply'] {
  return (s, step, obs) => {
    const counts = upsert(s, 'import', step, rows);
    if (obs.error) return `import of ${rows.length} rows failed: ${obs.error}`;
    return JSON.stringify(obs.counts) !== JSON.stringify(counts)
      ? `import of ${rows.length} rows: expected ${JSON.stringify(counts)}, got ${JSON.stringify(obs.counts)}`
      : undefined;
  };
}

// ----- what the generated commands hold (resolved at run time) ----------------------------------

/** Which record: among those the run touched, the live ones, or every id the store had. */
export interface RecordPick {
  from: 'recent' | 'live' | 'any';
  n: number;
}
/** Which key: one a record the run touched has or had, or one from the pool of new keys. */
export interface KeyPick {
  existing: boolean;
  n: number;
}
/** Which live records a bulk write or an import revises, and what else it holds. */
export interface Shape {
  count: number;
  scattered: boolean;
  stride: number;
  offset: number;
  fresh: number;
  /** Import: every other live record too, unchanged (a revised copy of the whole file). */
  whole: boolean;
  delta: number;
}

export type Spec =
  | { t: 'post'; client: Client; key: KeyPick; figures: Figures }
  | { t: 'put'; client: Client; pick: RecordPick; figures: Figures; same: boolean; move?: KeyPick }
  | { t: 'delete'; client: Client; pick: RecordPick }
  | { t: 'bulk'; client: Client; shape: Shape }
  | { t: 'import'; shape: Shape }
  | { t: 'restore'; pick: RecordPick; revision?: number }
  | { t: 'revert'; client: Client; since: number; dryRun: boolean; upper?: boolean }
  | { t: 'prune'; before: number; dryRun: boolean };

const pickFrom = <T>(list: readonly T[], n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length];

function recordId(m: Model, pick: RecordPick): number {
  const ids =
    pick.from === 'recent' && m.recent.length > 0
      ? m.recent
      : (pick.from === 'any' ? [...m.state.revisions.keys()] : [...m.state.store.keys()]).sort(
          (a, b) => a - b,
        );
  return pickFrom(ids, pick.n) ?? 1;
}

/** A record's values now, or as its last revision had them (a deleted one). */
function lastValues(m: Model, id: number): Values | undefined {
  const live = m.state.store.get(id);
  if (live) return live;
  const list = m.state.revisions.get(id) ?? [];
  for (let i = list.length - 1; i >= 0; i--) if (list[i].values) return list[i].values!;
  return undefined;
}

function keyFor(m: Model, pick: KeyPick): { country: string; date: string } {
  if (pick.existing) {
    const values = lastValues(m, pickFrom(m.recent, pick.n) ?? 1);
    if (values) return { country: values.country, date: values.date };
  }
  return newKey(pick.n);
}

/** The rows of a bulk write or an import: revised live records, new keys, unchanged ones. */
function shapeRows(m: Model, shape: Shape): Values[] {
  const live = [...m.state.store.entries()].sort(([a], [b]) => a - b);
  const chosen = new Set<number>();
  if (live.length > 0) {
    const stride = shape.scattered ? shape.stride : 1;
    const start = shape.offset % live.length;
    for (let i = 0; i < shape.count && chosen.size < Math.ceil(live.length / stride); i++) {
      chosen.add((start + i * stride) % live.length);
    }
  }
  const rows: Values[] = [];
  live.forEach(([, v], i) => {
    if (chosen.has(i)) {
      rows.push({ ...v, total_cases: v.total_cases + shape.delta, new_cases: v.new_cases + 1 });
    } else if (shape.whole) rows.push(v);
  });
  const keys = new Set(rows.map(keyOf));
  for (let i = 0; i < shape.fresh; i++) {
    const key = newKey(shape.offset + i * 7);
    if (keys.has(keyOf(key))) continue;
    keys.add(keyOf(key));
    rows.push(
      ordered({ ...key, total_cases: 5 + i, new_cases: 1, total_deaths: 1, new_deaths: 0 }),
    );
  }
  return rows;
}

const sample = (ids: number[], n = 8) =>
  ids.length <= n ? ids : ids.filter((_, i) => i % Math.ceil(ids.length / n) === 0);

const short = (v: object) => JSON.stringify(v);

/** Resolves a generated command against the model as it is now. */
export function resolve(m: Model, spec: Spec): Op {
  switch (spec.t) {
    case 'post': {
      const values = ordered({ ...keyFor(m, spec.key), ...spec.figures });
      let created: number | undefined;
      return {
        text: `${spec.client} POST ${short(values)}`,
        get touched() {
          return created ? [created] : [];
        },
        run: (real) => http(real, spec.client, 'post', '', values),
        apply: (s, step, obs) => {
          const expected = postAnswer(s, values);
          const wrong = statusMismatch(`POST ${keyOf(values)}`, expected.status, obs);
          if (wrong || obs.status !== 201) return wrong;
          created = (obs.body as { id: number }).id;
          if (s.revisions.has(created))
            return `POST ${keyOf(values)}: new id ${created} was an older record's`;
          write(s, created, values, spec.client, step);
          return undefined;
        },
      };
    }
    case 'put': {
      const id = recordId(m, spec.pick);
      const last = lastValues(m, id);
      const key = spec.move ? keyFor(m, spec.move) : (last ?? newKey(0));
      const values = spec.same && last ? last : ordered({ ...key, ...spec.figures });
      return {
        text: `${spec.client} PUT ${id} ${short(values)}`,
        touched: [id],
        run: (real) => http(real, spec.client, 'put', `/${id}`, values),
        apply: (s, step, obs) =>
          statusMismatch(`PUT ${id}`, put(s, spec.client, step, id, values).status, obs),
      };
    }
    case 'delete': {
      const id = recordId(m, spec.pick);
      return {
        text: `${spec.client} DELETE ${id}`,
        touched: [id],
        run: (real) => http(real, spec.client, 'delete', `/${id}`),
        apply: (s, step, obs) =>
          statusMismatch(`DELETE ${id}`, remove(s, spec.client, step, id).status, obs),
      };
    }
    case 'bulk': {
      const rows = shapeRows(m, { ...spec.shape, whole: false });
      const ids = rows.map((r) => m.state.keys.get(keyOf(r)));
      return {
        text: `${spec.client} bulk of ${rows.length} rows (${spec.shape.scattered ? 'scattered' : 'contiguous'})`,
        touched: sample(ids.filter((x): x is number => typeof x === 'number')),
        run: (real) => http(real, spec.client, 'post', '/bulk', rows),
        apply: (s, step, obs) => {
          const counts = upsert(s, spec.client, step, rows);
          const wrong = statusMismatch(`bulk of ${rows.length}`, 200, obs);
          if (wrong) return wrong;
          const body = obs.body as { success: boolean; inserted: number; updated: number };
          return body.success &&
            body.inserted === counts.inserted &&
            body.inserted + body.updated === rows.length
            ? undefined
            : `bulk of ${rows.length}: expected ${counts.inserted} inserted of ${rows.length}, got ${short(body)}`;
        },
      };
    }
    case 'import': {
      const rows = shapeRows(m, spec.shape);
      return {
        text: `import of ${rows.length} rows (${spec.shape.count} revised, ${spec.shape.scattered ? 'scattered' : 'contiguous'})`,
        touched: [],
        run: (real) => importRows(real, rows),
        apply: importApply(rows),
      };
    }
    case 'restore': {
      const id = recordId(m, spec.pick);
      return {
        text: `restore ${id}${spec.revision === undefined ? '' : ` --revision ${spec.revision}`}`,
        touched: [id],
        run: async (real) => {
          try {
            return { restored: await real.history.restore(COVID_SERIES, id, spec.revision) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
        apply: (s, step, obs) => {
          const expected = restore(s, step, id, spec.revision);
          const got = obs.error ? `error: ${obs.error}` : short(obs.restored!);
          if ('error' in expected) {
            const clash = /same country and date/.test(obs.error ?? '');
            return obs.error && (expected.error === 'clash') === clash
              ? undefined
              : `restore ${id}: expected refusal (${expected.error}), got ${got}`;
          }
          return obs.restored && short(obs.restored) === short(expected)
            ? undefined
            : `restore ${id}: expected ${short(expected)}, got ${got}`;
        },
      };
    }
    case 'revert': {
      const mark = m.marks[Math.min(spec.since, m.marks.length - 1)];
      const mode = spec.dryRun ? ' --dry-run' : '';
      const actor = spec.upper ? spec.client.toUpperCase() : spec.client;
      const touched: number[] = [];
      return {
        text: `revert --actor ${actor} --since <mark after step ${mark.pos}>${mode}`,
        touched,
        run: async (real) => {
          try {
            const result = await real.history.revert(
              COVID_SERIES,
              actor,
              Date.parse(mark.at),
              spec.dryRun,
            );
            const changed = result.steps
              .filter((x) => ['create', 'update', 'delete'].includes(x.outcome))
              .map((x) => x.recordId);
            return { changed: changed.sort((a, b) => a - b) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
        apply: (s, step, obs) => {
          const plan = planRevert(s, spec.client, mark.pos, new Set(obs.changed ?? []));
          const expected = [...plan.changes.keys()].sort((a, b) => a - b);
          touched.push(
            ...sample([...expected, ...plan.blocked, ...plan.unprovable, ...plan.changedByOthers]),
          );
          const why = () =>
            `expected changes to ${short(expected)} (blocked ${short([...plan.blocked])}, ` +
            `unprovable ${short([...plan.unprovable])}, changed by others ${short([...plan.changedByOthers])}), `;
          if (obs.error) return `revert ${spec.client}${mode}: ${why()}got error: ${obs.error}`;
          // A dry run says exactly what the run would do; clashes are left alone one by one.
          if (short(obs.changed ?? []) !== short(expected)) {
            return `revert ${spec.client}${mode}: ${why()}got ${short(obs.changed ?? [])}`;
          }
          if (!spec.dryRun) applyRevert(s, spec.client, step, plan);
          return undefined;
        },
      };
    }
    case 'prune': {
      const mark = m.marks[Math.max(m.marks.length - 1 - spec.before, 0)];
      const mode = spec.dryRun ? ' --dry-run' : '';
      return {
        text: `prune-history --before <mark after step ${mark.pos}>${mode}`,
        touched: [],
        run: async (real) => {
          try {
            const counts = await real.history.prune(COVID_SERIES, Date.parse(mark.at), spec.dryRun);
            return { removed: counts.revisions };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
        apply: (s, _step, obs) => {
          const removed = prune(s, mark, spec.dryRun);
          return obs.removed === removed
            ? undefined
            : `prune-history${mode}: expected ${removed} revision(s) removed, got ${obs.removed ?? obs.error}`;
        },
      };
    }
  }
}

// ----- checking a step ---------------------------------------------------------------------------

interface LiveRecord extends Values {
  id: number;
}

async function list(real: Real, asOf?: string): Promise<{ status: number; body: unknown }> {
  const query = asOf ? `&as_of=${encodeURIComponent(asOf)}` : '';
  const res = await real.t.http.get(`/api/covid/data?limit=100000000${query}`).set(as('alice'));
  return { status: res.status, body: res.body as unknown };
}

/** What differs between the model's store and the records listed (at most a few lines). */
function storeDiff(expected: ReadonlyMap<number, Values>, listed: LiveRecord[]): string[] {
  const lines: string[] = [];
  const seen = new Set<number>();
  for (const { id, ...values } of listed) {
    seen.add(id);
    const want = expected.get(id);
    if (!want) lines.push(`record ${id} ${short(values)} should not be there`);
    else if (!sameValues(want, values))
      lines.push(`record ${id}: expected ${short(want)}, got ${short(values)}`);
  }
  for (const [id, want] of expected)
    if (!seen.has(id)) lines.push(`record ${id} ${short(want)} is missing`);
  return lines.length > 5 ? [...lines.slice(0, 5), `... ${lines.length - 5} more`] : lines;
}

const normalActor = (actor: string) =>
  actor.startsWith('import:') ? 'import' : actor.startsWith('cli:revert') ? 'cli:revert' : actor;

async function historyDiff(real: Real, s: ModelState, id: number): Promise<string | undefined> {
  const res = await real.t.http.get(`/api/covid/data/${id}/history`).set(as('alice'));
  const kept = keptRevisions(s, id);
  const want = kept.map((r) => ({
    actor: r.actor,
    change: r.kind,
    record: r.values && { id, ...r.values },
  }));
  const got =
    res.status === 200
      ? (res.body as { actor: string; change: string; record: LiveRecord | null }[]).map((r) => ({
          actor: normalActor(r.actor),
          change: r.change,
          record: r.record && { id: r.record.id, ...ordered(r.record) },
        }))
      : [];
  return short(got) === short(want)
    ? undefined
    : `history of ${id}: expected ${short(want)}, got ${res.status} ${short(got)}`;
}

/** Every order of `items` (there are at most three). */
function orders<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/**
 * Plays `ops` (done together, observed as `observations`) on the model in the first order that
 * explains what was observed and the store now, then checks the store, the histories of the
 * records touched and takes the instant after the step. Throws what does not match.
 */
export async function check(
  model: Model,
  real: Real,
  ops: Op[],
  observations: Observation[],
): Promise<void> {
  const step = model.step;
  const res = await list(real);
  if (res.status !== 200) throw new Error(`step ${step}: GET /data answered ${res.status}`);
  const listed = (res.body as LiveRecord[]).map(({ id, ...v }) => ({ id, ...ordered(v) }));
  const live = listed.map(({ id, ...values }) => ({ id, values }));
  const failures: string[] = [];
  let chosen: ModelState | undefined;
  for (const order of orders(ops.map((op, i) => ({ op, obs: observations[i] })))) {
    const s = cloneState(model.state);
    const wrong =
      order.map(({ op, obs }) => op.apply(s, step, obs)).find((x) => x !== undefined) ??
      adopt(s, live) ??
      storeDiff(s.store, listed).join('; ');
    if (!wrong) {
      chosen = s;
      break;
    }
    failures.push(`in the order ${order.map((x) => x.op.text).join(', then ')}: ${wrong}`);
  }
  if (!chosen) {
    throw new Error(
      `step ${step}: no order of the writes explains what the service did:\n${failures.join('\n')}`,
    );
  }
  model.state = chosen;
  if (process.env.FC_VERBOSE) {
    const seen = ops.map((op, i) => `${op.text} -> ${short(observations[i]).slice(0, 200)}`);
    process.stderr.write(`step ${step}: ${seen.join(' || ')}\n`);
  }
  for (const id of new Set(ops.flatMap((op) => op.touched))) {
    const wrong = await historyDiff(real, chosen, id);
    if (wrong) throw new Error(`step ${step}: ${wrong}`);
    if (!model.recent.includes(id) && chosen.revisions.has(id)) model.recent.push(id);
  }
  const at = await instantBetweenWrites();
  model.marks.push({ at, pos: step, store: new Map(chosen.store) });
  model.step++;
}

/** `as_of` a mark: the model's store then, or a 400 before the prune horizon. */
export async function checkAsOf(model: Model, real: Real, mark: Mark): Promise<void> {
  const res = await list(real, mark.at);
  const horizon = model.state.horizon;
  if (horizon && mark.pos < horizon.pos) {
    const expected = `as_of : doit être postérieur ou égal à ${horizon.at} : l'historique antérieur a été élagué`;
    const details = (res.body as { details?: string[] }).details ?? [];
    if (res.status !== 400 || details[0] !== expected) {
      throw new Error(
        `as_of the mark after step ${mark.pos} (before the horizon after step ${horizon.pos}): expected 400 "${expected}", got ${res.status} ${short(res.body as object)}`,
      );
    }
    return;
  }
  const diff =
    res.status === 200
      ? storeDiff(mark.store, res.body as LiveRecord[])
      : [`status ${res.status} ${short(res.body as object)}`];
  if (diff.length) {
    throw new Error(
      `as_of the mark after step ${mark.pos}${horizon ? ` (horizon after step ${horizon.pos})` : ''}: ${diff.join('; ')}`,
    );
  }
}

/** The store as a partner mirrors it: the change feed read from its start, 10,000 at a time. */
export async function checkFeed(model: Model, real: Real): Promise<void> {
  const mirror = new Map<number, Values>();
  let after = '';
  for (let pages = 0; pages < 1000; pages++) {
    const res = await real.t.http.get(`/api/covid/changes?limit=10000${after}`).set(as('alice'));
    if (res.status !== 200) throw new Error(`the change feed answered ${res.status}`);
    const page = res.body as {
      changes: { id: number; record: LiveRecord | null }[];
      next: string | null;
    };
    if (page.next === null) break;
    for (const c of page.changes) {
      if (c.record === null) mirror.delete(c.id);
      else mirror.set(c.id, ordered(c.record));
    }
    after = `&after=${page.next}`;
  }
  const listed = [...mirror].map(([id, values]) => ({ id, ...values }));
  const diff = storeDiff(model.state.store, listed);
  if (diff.length) throw new Error(`the store mirrored from the change feed: ${diff.join('; ')}`);
}

// ----- the commands ------------------------------------------------------------------------------

const describe = (spec: Spec): string => {
  const { t, ...rest } = spec;
  return `${t}(${JSON.stringify(rest)})`;
};

/** One write, or several done at once (`delayMs` apart). */
export class WriteCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly specs: Spec[],
    readonly delays: number[] = [],
  ) {}

  /**
   * Not a bulk write by a client with a revert of that client: the revert could remove the new
   * records before the model knows their ids.
   */
  check(): boolean {
    const reverted = this.specs.flatMap((x) => (x.t === 'revert' ? [x.client] : []));
    return !this.specs.some((x) => x.t === 'bulk' && reverted.includes(x.client));
  }

  async run(model: Model, real: Real): Promise<void> {
    const ops = this.specs.map((spec) => resolve(model, spec));
    const observations = await Promise.all(
      ops.map(async (op, i) => {
        if (this.delays[i]) await new Promise((r) => setTimeout(r, this.delays[i]));
        return op.run(real);
      }),
    );
    await check(model, real, ops, observations);
  }

  toString(): string {
    const text = this.specs.map(describe).join(' || ');
    return this.specs.length > 1
      ? `together[${text}; delays ${JSON.stringify(this.delays)}]`
      : text;
  }
}

/**
 * `revert` of one client while another PUTs a record that revert puts back (the write lands
 * before the revert reads it, or after it wrote: either way it must stay).
 */
export class RevertRaceCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly client: Client,
    readonly other: Client,
    readonly since: number,
    readonly figures: Figures,
    readonly delayMs: number,
  ) {}

  check(): boolean {
    return this.client !== this.other;
  }

  async run(model: Model, real: Real): Promise<void> {
    const mark = model.marks[Math.min(this.since, model.marks.length - 1)];
    const plan = planRevert(model.state, this.client, mark.pos);
    const targets = [...plan.changes].filter(([id, v]) => v && model.state.store.has(id));
    const id = targets.length ? Math.max(...targets.map(([x]) => x)) : undefined;
    const specs: Spec[] = [{ t: 'revert', client: this.client, since: this.since, dryRun: false }];
    if (id !== undefined) {
      const ids = [...model.state.store.keys()].sort((a, b) => a - b);
      specs.push({
        t: 'put',
        client: this.other,
        pick: { from: 'live', n: ids.indexOf(id) },
        figures: this.figures,
        same: false,
      });
    }
    await new WriteCommand(specs, [0, this.delayMs]).run(model, real);
  }

  toString(): string {
    return `revertRace(${JSON.stringify({ client: this.client, other: this.other, since: this.since, figures: this.figures, delayMs: this.delayMs })})`;
  }
}

/** `as_of` one of the instants taken so far. */
export class AsOfCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly at: number) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    await checkAsOf(model, real, pickFrom(model.marks, this.at)!);
  }
  toString(): string {
    return `asOf(${this.at})`;
  }
}

/** After a real prune: the answers at and after its horizon, and a 400 before it. */
export class PruneCommand extends WriteCommand {
  override async run(model: Model, real: Real): Promise<void> {
    await super.run(model, real);
    const horizon = model.state.horizon;
    if (!horizon) return;
    const at = model.marks.findIndex((mk) => mk.pos === horizon.pos);
    for (const mark of [
      model.marks[at - 1],
      model.marks[at],
      model.marks[model.marks.length - 1],
    ]) {
      if (mark) await checkAsOf(model, real, mark);
    }
  }
}

// ----- generators --------------------------------------------------------------------------------

/** Mallory (the leaked token) writes and is reverted most. */
const client: fc.Arbitrary<Client> = fc.oneof(
  { weight: 2, arbitrary: fc.constant('mallory' as const) },
  { weight: 1, arbitrary: fc.constantFrom('alice' as const, 'bob' as const) },
);
const figures: fc.Arbitrary<Figures> = fc.record({
  total_cases: fc.nat(1_000_000),
  new_cases: fc.nat(1000),
  total_deaths: fc.nat(10_000),
  new_deaths: fc.nat(100),
});
/** A mark counted from the first (`revert --since`) or the last (`prune-history --before`). */
const markPick = fc.oneof(
  { weight: 3, arbitrary: fc.nat(4) },
  { weight: 1, arbitrary: fc.nat(40) },
);
const recordPick: fc.Arbitrary<RecordPick> = fc.record({
  from: fc.oneof(
    { weight: 4, arbitrary: fc.constant('recent' as const) },
    { weight: 2, arbitrary: fc.constant('live' as const) },
    { weight: 1, arbitrary: fc.constant('any' as const) },
  ),
  n: fc.nat(),
});
const keyPick: fc.Arbitrary<KeyPick> = fc.record({ existing: fc.boolean(), n: fc.nat() });
/** Mostly a few rows; now and then a thousand or more, scattered or not. */
const shape = (large: number): fc.Arbitrary<Shape> =>
  fc.record({
    count: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) },
      { weight: large, arbitrary: fc.integer({ min: 1000, max: 1080 }) },
    ),
    scattered: fc.boolean(),
    stride: fc.integer({ min: 2, max: 2 }),
    offset: fc.nat(),
    fresh: fc.nat(3),
    whole: fc.boolean(),
    delta: fc.integer({ min: 1, max: 1000 }),
  });

const writeSpec = (large: number, without: string[]): fc.Arbitrary<Spec> =>
  fc.oneof(
    ...[
      {
        kind: 'post',
        weight: 3,
        arbitrary: fc.record({ t: fc.constant('post' as const), client, key: keyPick, figures }),
      },
      {
        kind: 'put',
        weight: 4,
        arbitrary: fc.record(
          {
            t: fc.constant('put' as const),
            client,
            pick: recordPick,
            figures,
            same: fc.oneof(
              { weight: 1, arbitrary: fc.constant(true) },
              { weight: 6, arbitrary: fc.constant(false) },
            ),
            move: keyPick,
          },
          { requiredKeys: ['t', 'client', 'pick', 'figures', 'same'] },
        ),
      },
      {
        kind: 'delete',
        weight: 2,
        arbitrary: fc.record({ t: fc.constant('delete' as const), client, pick: recordPick }),
      },
      {
        kind: 'bulk',
        weight: 3,
        arbitrary: fc.record({ t: fc.constant('bulk' as const), client, shape: shape(large) }),
      },
      {
        kind: 'import',
        weight: 2,
        arbitrary: fc.record({ t: fc.constant('import' as const), shape: shape(large) }),
      },
      {
        kind: 'restore',
        weight: 2,
        arbitrary: fc.record(
          {
            t: fc.constant('restore' as const),
            pick: recordPick,
            revision: fc.integer({ min: 1, max: 4 }),
          },
          { requiredKeys: ['t', 'pick'] },
        ),
      },
      {
        kind: 'revert',
        weight: 3,
        arbitrary: fc.record(
          {
            t: fc.constant('revert' as const),
            client,
            since: markPick,
            dryRun: fc.boolean(),
            // Client names match ignoring case: `--actor MALLORY` is mallory.
            upper: fc.oneof(
              { weight: 4, arbitrary: fc.constant(false) },
              { weight: 1, arbitrary: fc.constant(true) },
            ),
          },
          { requiredKeys: ['t', 'client', 'since', 'dryRun'] },
        ),
      },
      {
        kind: 'prune',
        weight: 2,
        arbitrary: fc.record({
          t: fc.constant('prune' as const),
          before: markPick,
          dryRun: fc.boolean(),
        }),
      },
    ].filter((choice) => !without.includes(choice.kind)),
  );

/**
 * The commands of a run: `large` weighs the writes of a thousand rows or more against the small
 * ones (8).
 */
export function writeCommands(
  large = 1,
  without: string[] = [],
): fc.Arbitrary<fc.AsyncCommand<Model, Real>> {
  const choices = [
    {
      kind: 'one',
      weight: 12,
      arbitrary: writeSpec(large, without).map((spec) =>
        spec.t === 'prune' ? new PruneCommand([spec]) : new WriteCommand([spec]),
      ),
    },
    {
      kind: 'together',
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.array(writeSpec(0, without), { minLength: 2, maxLength: 3 }),
          fc.array(fc.nat(30), { minLength: 3, maxLength: 3 }),
        )
        .map(([specs, delays]) => new WriteCommand(specs, delays)),
    },
    {
      kind: 'race',
      weight: 1,
      arbitrary: fc
        .tuple(client, client, markPick, figures, fc.nat(30))
        .map((args) => new RevertRaceCommand(...args)),
    },
    { kind: 'asOf', weight: 2, arbitrary: fc.nat().map((n) => new AsOfCommand(n)) },
  ];
  return fc.oneof(...choices.filter((choice) => !without.includes(choice.kind)));
}
