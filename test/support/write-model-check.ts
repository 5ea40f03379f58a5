import {
  Mark,
  ModelState,
  Values,
  adopt,
  cloneState,
  emptyState,
  keptRevisions,
  ordered,
  sameValues,
} from './write-model';
import { Op, importApply } from './write-model-ops';
import { COUNTRIES, FIRST_LOAD_DAYS, Model, day, short } from './write-model-specs';
import { LiveRecord, Observation, Real, as, importRows, list } from './write-model-system';
import { instantBetweenWrites } from './fixtures';

/*
 * The checks of the model-based test of the write paths: after each step, the whole store, the
 * histories of the records it touched and the instant after it; `as_of` an instant; the store
 * mirrored from the change feed at the end of a run.
 */

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
  const touched = ops.flatMap((op) => [
    ...op.touched,
    ...(op.touchedKeys ?? []).flatMap((key) => chosen.keys.get(key) ?? []),
  ]);
  for (const id of new Set(touched)) {
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
