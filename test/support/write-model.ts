/**
 * A plain in-memory model of one disease's records and their history, written from the documented
 * semantics (docs/history.md, docs/api.md) and not from the code: the model-based test of the
 * write paths (test/slow/history/write-paths-model.e2e-spec.ts) checks the service against it.
 *
 * Time is counted in steps: every command of a run is one step, and the test takes an instant
 * (`Mark`) between two steps. A revision made by step s is before a mark taken after step p when
 * s <= p, which is all that `as_of`, `revert --since` and `prune-history --before` need to know.
 */

import { canonicalCountryName } from '@app/countries';
import { RecordValues } from '@app/diseases';

export type Values = RecordValues;

export type Kind = 'create' | 'update' | 'delete';

export interface Revision {
  /** As the history shows it (`cli:revert`, a client's name, `import`...). */
  actor: string;
  /** Set on a revert's revisions: whose changes it undid (not "someone else" for that actor). */
  revertOf?: string;
  kind: Kind;
  values: Values | null;
  /** A deletion's: the values it removed (a deletion's revision keeps them, for `as_of`). */
  removed?: Values;
  step: number;
  /** False once `prune-history` removed it. */
  kept: boolean;
}

/** An instant taken after step `pos`, and the store as it was then. */
export interface Mark {
  at: string;
  pos: number;
  store: ReadonlyMap<number, Values>;
}

/** The part of the model that writes change (cloned to try the orders of concurrent steps). */
export interface ModelState {
  store: Map<number, Values>;
  /** The live record holding each key. */
  keys: Map<string, number>;
  revisions: Map<number, Revision[]>;
  /**
   * The last id given to a record inserted by a bulk write or an import, before the service shows
   * its real id: such records hold negative ids until `adopt` renames them.
   */
  temporary: number;
  /** The prune horizon: a mark's position and instant, or none. */
  horizon: { pos: number; at: string } | null;
}

/*
 * A country is stored under its canonical name, whatever spelling a client sent (`US`, `USA`,
 * ` united states `: `United States`, docs/countries.md): the model asks the service's own lookup
 * rather than keep a second list of names that could drift from it.
 */
const canonical = (country: string): string => canonicalCountryName(country);

export const keyOf = (v: { country: string; date: string }): string =>
  `${canonical(v.country)}|${v.date}`;

export const sameValues = (a: Values | null, b: Values | null): boolean =>
  JSON.stringify(a && ordered(a)) === JSON.stringify(b && ordered(b));

/** The fields in one order, the country under its canonical name: as the service stores them. */
export function ordered(v: Values): Values {
  const { date, country, total_cases, new_cases, total_deaths, new_deaths } = v;
  return { date, country: canonical(country), total_cases, new_cases, total_deaths, new_deaths };
}

export function emptyState(): ModelState {
  return { store: new Map(), keys: new Map(), revisions: new Map(), temporary: 0, horizon: null };
}

export function cloneState(s: ModelState): ModelState {
  return {
    store: new Map(s.store),
    keys: new Map(s.keys),
    revisions: new Map([...s.revisions].map(([id, list]) => [id, list.map((r) => ({ ...r }))])),
    temporary: s.temporary,
    horizon: s.horizon,
  };
}

/** The live record holding a key, if any. */
export const holderOf = (s: ModelState, key: string): number | undefined => s.keys.get(key);

/**
 * Writes `values` (null: deletes) to record `id` as `actor` at `step`; appends a revision unless
 * nothing changes (a write that changes nothing appends nothing). Returns what it was.
 */
export function write(
  s: ModelState,
  id: number,
  values: Values | null,
  actor: string,
  step: number,
  revertOf?: string,
): Kind | 'unchanged' {
  const now = s.store.get(id) ?? null;
  if (sameValues(now, values)) return 'unchanged';
  const kind: Kind = now === null ? 'create' : values === null ? 'delete' : 'update';
  if (now !== null && s.keys.get(keyOf(now)) === id) s.keys.delete(keyOf(now));
  if (values === null) s.store.delete(id);
  else {
    s.store.set(id, ordered(values));
    s.keys.set(keyOf(values), id);
  }
  const list = s.revisions.get(id) ?? [];
  const removed = values === null ? now! : undefined;
  list.push({
    actor,
    revertOf,
    kind,
    values: values && ordered(values),
    removed,
    step,
    kept: true,
  });
  s.revisions.set(id, list);
  return kind;
}

/** The kept revisions of a record: what `/history` shows (numbered from 1). */
export const keptRevisions = (s: ModelState, id: number): Revision[] =>
  (s.revisions.get(id) ?? []).filter((r) => r.kept);

export type WriteAnswer = { status: number; inserted?: number; updated?: number };

/** `POST /data`: a 409 when a live record holds the key; otherwise the caller adopts the new id. */
export function postAnswer(s: ModelState, values: Values): WriteAnswer {
  return { status: holderOf(s, keyOf(values)) === undefined ? 201 : 409 };
}

/** `PUT /data/:id`: 404 unless live, 409 when another live record holds the new key. */
export function put(
  s: ModelState,
  actor: string,
  step: number,
  id: number,
  values: Values,
): WriteAnswer {
  if (!s.store.has(id)) return { status: 404 };
  const holder = holderOf(s, keyOf(values));
  if (holder !== undefined && holder !== id) return { status: 409 };
  write(s, id, values, actor, step);
  return { status: 200 };
}

/** `DELETE /data/:id`: 404 unless live. */
export function remove(s: ModelState, actor: string, step: number, id: number): WriteAnswer {
  if (!s.store.has(id)) return { status: 404 };
  write(s, id, null, actor, step);
  return { status: 200 };
}

/**
 * A bulk write or an import: insert or update by country and date, all together, row after row: a
 * key named twice is one insert (or update) then an update, the later row wins, and a row equal to
 * what the key then holds is unchanged (docs/api.md, "Bulk writes"). A new record takes a
 * temporary (negative) id until `adopt` gives it the service's.
 */
export function upsert(
  s: ModelState,
  actor: string,
  step: number,
  rows: Values[],
): { inserted: number; updated: number; unchanged: number } {
  let inserted = 0;
  let updated = 0;
  let unchanged = 0;
  for (const row of rows) {
    const holder = holderOf(s, keyOf(row));
    if (holder === undefined) {
      inserted++;
      write(s, --s.temporary, row, actor, step);
    } else if (write(s, holder, row, actor, step) === 'unchanged') unchanged++;
    else updated++;
  }
  return { inserted, updated, unchanged };
}

/**
 * Gives the records inserted under temporary ids the ids the service shows (found by country and
 * date among the listed records the model does not know). A new id must be one no record ever
 * had: a record's history is its own. Returns what is wrong, or undefined.
 */
export function adopt(s: ModelState, live: { id: number; values: Values }[]): string | undefined {
  const temporary = [...s.revisions.keys()].filter((id) => id < 0);
  if (temporary.length === 0) return undefined;
  const byKey = new Map(live.filter((r) => !s.store.has(r.id)).map((r) => [keyOf(r.values), r]));
  for (const id of temporary) {
    const values = s.store.get(id);
    if (!values) return `a record inserted then removed in one step (id ${id}) cannot be followed`;
    const found = byKey.get(keyOf(values));
    if (!found) return `the record inserted for ${keyOf(values)} is missing`;
    if (s.revisions.has(found.id)) {
      return `the record inserted for ${keyOf(values)} took id ${found.id}, which an older record had`;
    }
    s.store.delete(id);
    s.store.set(found.id, values);
    s.keys.set(keyOf(values), found.id);
    s.revisions.set(found.id, s.revisions.get(id)!);
    s.revisions.delete(id);
  }
  return undefined;
}

export type RestoreAnswer =
  | { error: 'no-history' | 'one-revision' | 'out-of-range' | 'clash' }
  | { kind: Kind | 'unchanged'; from: number };

/** `restore <id> [--revision n]`, numbers counted over the kept revisions. */
export function restore(s: ModelState, step: number, id: number, revision?: number): RestoreAnswer {
  const kept = keptRevisions(s, id);
  if (kept.length === 0) return { error: 'no-history' };
  const from = revision ?? kept.length - 1;
  if (from < 1 || from > kept.length) {
    return { error: revision === undefined ? 'one-revision' : 'out-of-range' };
  }
  const target = kept[from - 1].values;
  if (target) {
    const holder = holderOf(s, keyOf(target));
    if (holder !== undefined && holder !== id) return { error: 'clash' };
  }
  return { kind: write(s, id, target, 'cli:restore', step), from };
}

export interface RevertPlan {
  /** The records the revert changes, and to what (null: removed). */
  changes: Map<number, Values | null>;
  /** Records that it would put back but another record now holds the key they would take. */
  blocked: Set<number>;
  /** Records left as they are because their state before the actor's change was pruned. */
  unprovable: Set<number>;
  /** Records left as they are because someone else changed them afterwards. */
  changedByOthers: Set<number>;
  /**
   * Records on which the whole history and the pruned one disagree (the actor changed it before
   * the horizon, someone else then, the actor again after it): either answer is right.
   */
  ambiguous: Set<number>;
}

type Decision =
  { target: Values | null } | { leave: 'others' | 'unprovable' | 'unchanged' | 'untouched' };

/**
 * What a revert does to one record, seen through `list` (every revision: what happened; the kept
 * ones: what the service can still prove).
 */
function decide(
  list: Revision[],
  actor: string,
  sincePos: number,
  now: Values | null,
  whole: boolean,
): Decision {
  const first = list.findIndex((r) => r.actor === actor && r.step > sincePos);
  if (first < 0) return { leave: 'untouched' };
  if (list.slice(first + 1).some((r) => r.actor !== actor && r.revertOf !== actor)) {
    return { leave: 'others' };
  }
  // A creation proves nothing was there; a deletion keeps what it removed; else the revision before.
  const change = list[first];
  const proven = change.kind !== 'update' ? change.kept : whole ? list[first - 1].kept : first > 0;
  if (!proven) return { leave: 'unprovable' };
  const before =
    change.kind === 'delete' ? change.removed! : first === 0 ? null : list[first - 1].values;
  return sameValues(before, now) ? { leave: 'unchanged' } : { target: before };
}

const sameDecision = (a: Decision, b: Decision): boolean =>
  'target' in a ? 'target' in b && sameValues(a.target, b.target) : 'leave' in b;

/**
 * `revert --actor <actor> --since <mark>`: every record the actor changed at or after the mark goes
 * back to its state just before the actor's first such change, unless someone else (anyone but the
 * actor and a revert of the actor's changes) changed it after that change, or that state is no
 * longer in the pruned history (nothing is guessed: a record is removed only when the actor's
 * creation of it is still in the history; a kept deletion holds what it removed). A record whose
 * old key a record the revert does not move holds is left alone (`blocked`), the rest reverted.
 * `reported`: the records the service said it changed, which settles the ambiguous ones.
 */
export function planRevert(
  s: ModelState,
  actor: string,
  sincePos: number,
  reported?: ReadonlySet<number>,
): RevertPlan {
  const plan: RevertPlan = {
    changes: new Map(),
    blocked: new Set(),
    unprovable: new Set(),
    changedByOthers: new Set(),
    ambiguous: new Set(),
  };
  for (const [id, list] of s.revisions) {
    const now = s.store.get(id) ?? null;
    const whole = decide(list, actor, sincePos, now, true);
    const kept = decide(
      list.filter((r) => r.kept),
      actor,
      sincePos,
      now,
      false,
    );
    let decision = whole;
    if (!sameDecision(whole, kept)) {
      plan.ambiguous.add(id);
      if (reported && reported.has(id) !== 'target' in whole) decision = kept;
    }
    if ('target' in decision) plan.changes.set(id, decision.target);
    else if (decision.leave === 'others') plan.changedByOthers.add(id);
    else if (decision.leave === 'unprovable') plan.unprovable.add(id);
  }
  // The store once every change is made: a key held twice blocks the records that would take it,
  // which then stay where they are, and may block others in turn.
  for (let blocking = true; blocking;) {
    blocking = false;
    const after = new Map(s.store);
    for (const [id, values] of plan.changes) {
      if (values === null) after.delete(id);
      else after.set(id, values);
    }
    const holders = new Map<string, number[]>();
    for (const [id, v] of after) holders.set(keyOf(v), [...(holders.get(keyOf(v)) ?? []), id]);
    for (const ids of holders.values()) {
      if (ids.length < 2) continue;
      for (const id of ids) {
        if (plan.changes.get(id)) {
          plan.changes.delete(id);
          plan.blocked.add(id);
          blocking = true;
        }
      }
    }
  }
  return plan;
}

/** Applies a revert's plan (its revisions are the actor `cli:revert`, undoing `actor`'s changes). */
export function applyRevert(s: ModelState, actor: string, step: number, plan: RevertPlan): void {
  // Removals first: a record the actor deleted then created again under the same key comes back.
  const order = [...plan.changes].sort(([, a], [, b]) => Number(a !== null) - Number(b !== null));
  for (const [id, values] of order) write(s, id, values, 'cli:revert', step, actor);
}

/**
 * `prune-history --before <mark>`: removes every revision made before the mark that a later one,
 * also made before it, supersedes. Returns how many went.
 */
export function prune(s: ModelState, mark: { pos: number; at: string }, dryRun: boolean): number {
  let removed = 0;
  for (const list of s.revisions.values()) {
    const kept = list.filter((r) => r.kept);
    const before = kept.filter((r) => r.step <= mark.pos);
    for (const r of before.slice(0, -1)) {
      removed++;
      if (!dryRun) r.kept = false;
    }
  }
  if (!dryRun && (s.horizon === null || s.horizon.pos < mark.pos)) {
    s.horizon = { pos: mark.pos, at: mark.at };
  }
  return removed;
}
