import { resolveCountry } from '@app/countries';
import { Mark, ModelState, Values, keyOf, ordered } from './write-model';
import { Client } from './write-model-system';

/*
 * What the generated commands of the model-based test of the write paths hold, and how they are
 * resolved against the model when they run: which record, which key, which rows.
 */

export const COUNTRIES = [
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
  'United States',
];
/** Days per country of the first load (the store a run starts from). */
export const FIRST_LOAD_DAYS = 180;
const NEW_KEYS = 48;

export const day = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);

/** The key of a record not in the first load (a small pool, so that keys meet again). */
export function newKey(n: number): { country: string; date: string } {
  const i = n % NEW_KEYS;
  return {
    country: COUNTRIES[i % COUNTRIES.length],
    date: day(FIRST_LOAD_DAYS + Math.floor(i / 12)),
  };
}

/**
 * The spellings a client may send a country under, its canonical name first: for the United
 * States `US`, ` united states `, `USA` (the service stores the canonical name).
 */
function spellingsOf(country: string): string[] {
  const { name, iso2, iso3 } = resolveCountry(country)!;
  return [name, iso2, ` ${name.toLowerCase()} `, iso3];
}

/** `values` with its country under one of its spellings (`n` picks which). */
export function respell(values: Values, n = 0): Values {
  return { ...values, country: pickFrom(spellingsOf(values.country), n)! };
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

/**
 * Which record: among those the run touched, the live ones, or every id the store had; or the
 * record `n` itself (`id`).
 */
export interface RecordPick {
  from: 'recent' | 'live' | 'any' | 'id';
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
  /** Rows named again further on in the batch (the later row wins). */
  twice: number;
  /** Which spellings the rows' countries are sent under. */
  spelling: number;
}

export type Spec =
  | { t: 'post'; client: Client; key: KeyPick; figures: Figures; spelling?: number }
  | {
      t: 'put';
      client: Client;
      pick: RecordPick;
      figures: Figures;
      same: boolean;
      move?: KeyPick;
      spelling?: number;
    }
  | { t: 'delete'; client: Client; pick: RecordPick }
  | { t: 'bulk'; client: Client; shape: Shape }
  | { t: 'import'; shape: Shape }
  | { t: 'restore'; pick: RecordPick; revision?: number }
  | { t: 'revert'; client: Client; since: number; dryRun: boolean; upper?: boolean }
  | { t: 'prune'; before: number; dryRun: boolean };

export const pickFrom = <T>(list: readonly T[], n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length];

export function recordId(m: Model, pick: RecordPick): number {
  if (pick.from === 'id') return pick.n;
  const ids =
    pick.from === 'recent' && m.recent.length > 0
      ? m.recent
      : (pick.from === 'any' ? [...m.state.revisions.keys()] : [...m.state.store.keys()]).sort(
          (a, b) => a - b,
        );
  return pickFrom(ids, pick.n) ?? 1;
}

/** A record's values now, or as its last revision had them (a deleted one). */
export function lastValues(m: Model, id: number): Values | undefined {
  const live = m.state.store.get(id);
  if (live) return live;
  const list = m.state.revisions.get(id) ?? [];
  for (let i = list.length - 1; i >= 0; i--) if (list[i].values) return list[i].values!;
  return undefined;
}

/** A pick of a key of the pool that no live record holds, from `n` on (none when all are). */
export function freeKeyPick(m: Model, n: number): KeyPick | undefined {
  for (let i = n; i < n + NEW_KEYS; i++) {
    if (!m.state.keys.has(keyOf(newKey(i)))) return { existing: false, n: i };
  }
  return undefined;
}

export function keyFor(m: Model, pick: KeyPick): { country: string; date: string } {
  if (pick.existing) {
    const values = lastValues(m, pickFrom(m.recent, pick.n) ?? 1);
    if (values) return { country: values.country, date: values.date };
  }
  return newKey(pick.n);
}

/** The rows of a bulk write or an import: revised live records, new keys, unchanged ones. */
export function shapeRows(m: Model, shape: Shape): Values[] {
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
  // A key named again: with other figures (the later row wins) or the same ones (unchanged).
  const named = rows.length;
  for (let i = 0; i < Math.min(shape.twice, named); i++) {
    const row = rows[(shape.offset + 5 * i) % named];
    rows.push(i % 2 === 0 ? { ...row, new_deaths: row.new_deaths + 1 + i } : row);
  }
  return rows.map((row, i) => respell(row, shape.spelling + i));
}

export const sample = (ids: number[], n = 8) =>
  ids.length <= n ? ids : ids.filter((_, i) => i % Math.ceil(ids.length / n) === 0);

export const short = (v: object) => JSON.stringify(v);
