import { resolveCountry } from '@app/countries';
import {
  DailyValues,
  VINTAGE_FIELDS,
  VintageField,
  VintageFigures,
  VintageRevision,
} from '@app/database';
import { ListColumns, ListFormat, listText } from '../list-format';
import { VintagePosition, encodeVintageCursor } from './vintage-cursor';

/** Versions per page when the query sets no `limit`, and at most. */
export const DEFAULT_VINTAGES_LIMIT = 1000;
export const MAX_VINTAGES_LIMIT = 10_000;

/** `/series?lag=N`: N at most (ten years). */
export const MAX_LAG_DAYS = 3650;

const DAY_MS = 86_400_000;

/** One version of a stored figure as `/vintages` answers it. */
export interface Vintage {
  date: string;
  country: string;
  /** ISO 3166-1 alpha-2; null for a place that is not a country. */
  iso_code: string | null;
  field: VintageField;
  /** Null: the figure was deleted (or its record moved to another place or date). */
  value: number | null;
  /** The commit that stored it: ISO 8601, UTC, milliseconds. */
  issued_at: string;
  /** Whole days from `date` (00:00 UTC) to `issued_at`. */
  lag: number;
}

/** A version and its place in the list. */
export interface PlacedVintage {
  position: VintagePosition;
  vintage: Vintage;
}

export const VINTAGE_COLUMNS: ListColumns<Vintage> = [
  'date',
  'country',
  'iso_code',
  'field',
  'value',
  'issued_at',
  'lag',
];

/** Whole days from `date` (00:00 UTC) to `at` (epoch ms). */
export function lagOf(date: string, at: number): number {
  return Math.floor((at - Date.parse(`${date}T00:00:00Z`)) / DAY_MS);
}

/** A figure's latest version counts at lag N when issued before this instant (epoch ms). */
export function lagCutoff(date: string, lag: number): number {
  return Date.parse(`${date}T00:00:00Z`) + (lag + 1) * DAY_MS;
}

/** What happened to a place and date: a revision left these figures there (null: none). */
interface VintageEvent {
  seq: number;
  order: number;
  id: number;
  issuedAt: number;
  figures: VintageFigures;
}

/** The revisions of one place and date, in the order read. */
export interface VintageGroup {
  key: string;
  date: string;
  revisions: VintageRevision[];
}

/** Consecutive revisions of the same place and date, together. */
export function groupsOf(revisions: VintageRevision[]): VintageGroup[] {
  const groups: VintageGroup[] = [];
  for (const revision of revisions) {
    const last = groups[groups.length - 1];
    if (last && last.key === revision.key && last.date === revision.date) {
      last.revisions.push(revision);
    } else {
      groups.push({ key: revision.key, date: revision.date, revisions: [revision] });
    }
  }
  return groups;
}

/**
 * A place and date's events in the order they committed: each revision, and each move of a record
 * away from it (a `PUT` to another place or date), before the revisions of the same commit, so
 * that records swapping places leave each place with the record that arrived.
 */
function eventsOf(group: VintageGroup): VintageEvent[] {
  const events: VintageEvent[] = [];
  for (const r of group.revisions) {
    events.push({ seq: r.seq, order: 1, id: r.id, issuedAt: r.issuedAt, figures: r.figures });
    if (r.movedAway) events.push({ ...r.movedAway, order: 0, figures: null });
  }
  return events.sort((a, b) => a.seq - b.seq || a.order - b.order || a.id - b.id);
}

/** Whether `a` comes after `b` in the list (both of the same place and date). */
function isAfter(a: VintagePosition, b: VintagePosition): boolean {
  return (a.field - b.field || a.seq - b.seq || a.order - b.order || a.id - b.id) > 0;
}

/**
 * The versions of a place and date, by figure (in `VINTAGE_FIELDS`' order) then as they were
 * issued: an event makes a version of a figure when it leaves another value than the one before
 * (none, before the first); a deletion or a move away leaves null.
 */
export function versionsOf(group: VintageGroup, fields: readonly VintageField[]): PlacedVintage[] {
  const events = eventsOf(group);
  const last = group.revisions[group.revisions.length - 1];
  const iso = resolveCountry(last.country)?.iso3 ?? null;
  const placed: PlacedVintage[] = [];
  VINTAGE_FIELDS.forEach((field, index) => {
    if (!fields.includes(field)) return;
    let value: number | null = null;
    for (const event of events) {
      const next = event.figures?.[field] ?? null;
      if (next === value) continue;
      value = next;
      placed.push({
        position: { key: group.key, date: group.date, field: index, ...pick(event) },
        vintage: {
          date: group.date,
          country: last.country,
          iso_code: iso,
          field,
          value,
          issued_at: new Date(event.issuedAt).toISOString(),
          lag: lagOf(group.date, event.issuedAt),
        },
      });
    }
  });
  return placed;
}

const pick = ({ seq, order, id }: VintageEvent) => ({ seq, order, id });

/** The versions of `group` past `after` when it is the same place and date. */
export function versionsAfter(
  placed: PlacedVintage[],
  after: VintagePosition | undefined,
): PlacedVintage[] {
  if (!after) return placed;
  return placed.filter(
    (p) =>
      p.position.key !== after.key || p.position.date !== after.date || isAfter(p.position, after),
  );
}

/**
 * A place and date as it stood `lag` days after the date: the figures the latest event issued
 * before the cutoff left (null: none), and whether they had changed after their first publication
 * by then (the day's `corrected` flag at that lag).
 */
export function figuresAtLag(
  group: VintageGroup,
  lag: number,
): { day: DailyValues | null; corrected: boolean } {
  const cutoff = lagCutoff(group.date, lag);
  let figures: VintageFigures = null;
  let published = false;
  let corrected = false;
  for (const event of eventsOf(group)) {
    if (event.issuedAt >= cutoff) continue;
    if (published && !sameFigures(figures, event.figures)) corrected = true;
    figures = event.figures;
    if (figures) published = true;
  }
  return { day: figures ? { date: group.date, ...figures } : null, corrected };
}

function sameFigures(a: VintageFigures, b: VintageFigures): boolean {
  if (a === null || b === null) return a === b;
  return VINTAGE_FIELDS.every((field) => a[field] === b[field]);
}

/** A page of versions in its format, and the cursor of the next page (null: the last). */
export interface VintagesPage {
  text: string;
  next: string | null;
}

/** JSON `{vintages, next}`, or one CSV row or NDJSON line per version (`next` in `Link`). */
export function vintagesPage(
  placed: PlacedVintage[],
  next: VintagePosition | undefined,
  format: ListFormat,
): VintagesPage {
  const vintages = placed.map((p) => p.vintage);
  const cursor = next === undefined ? null : encodeVintageCursor(next);
  if (format === 'json') return { text: JSON.stringify({ vintages, next: cursor }), next: cursor };
  return { text: listText(format, VINTAGE_COLUMNS, vintages), next: cursor };
}
