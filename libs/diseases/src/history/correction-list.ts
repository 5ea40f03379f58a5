import { ListColumns, ListFormat, listChunks, listText } from '../list-format';
import { encodeCorrectionCursor } from './correction-cursor';
import {
  CORRECTED_FIELDS,
  CorrectedField,
  CorrectingRevision,
  CorrectionKind,
  CorrectionPosition,
} from '@app/database';

/** Corrections per page when the query sets no `limit`, and at most. */
export const DEFAULT_CORRECTIONS_LIMIT = 1000;
export const MAX_CORRECTIONS_LIMIT = 10_000;

/** Latest corrections of a country on its public page when no `limit` is set, and at most. */
export const DEFAULT_PUBLIC_CORRECTIONS = 20;
export const MAX_PUBLIC_CORRECTIONS = 100;

/** One corrected figure as `/corrections` answers it. */
export interface Correction {
  /** When it changed: ISO 8601, UTC, milliseconds. */
  at: string;
  date: string;
  country: string;
  field: CorrectedField;
  /** Before the change; null when the record is created again. */
  old: number | null;
  /** After the change; null when the record is deleted. */
  new: number | null;
  change: CorrectionKind;
  /** Where the change came from, as any reader may see it (`correctionSource`). */
  source: string;
}

/** A correction as the public country page lists it: no `source` (client names stay private). */
export type PublicCorrection = Omit<Correction, 'country' | 'source'>;

/** A correction and its place in the list. */
export interface PlacedCorrection {
  position: CorrectionPosition;
  correction: Correction;
}

/** A page of corrections in its format, and the cursor of the next one (none for an empty page). */
export interface CorrectionsPage {
  text: string;
  next: string | null;
}

const CORRECTION_COLUMNS: ListColumns<Correction> = [
  'at',
  'date',
  'country',
  'field',
  'old',
  'new',
  'change',
  'source',
];

/**
 * A revision's actor as a correction's source: the CLI's commands by name (`restore`, `revert`),
 * every other actor as the history holds it (`import:<source>`, `sync:<source>`, a client's
 * name), already without query strings or server paths (`importActor`).
 */
export function correctionSource(actor: string): string {
  return actor.startsWith('cli:') ? actor.slice('cli:'.length) : actor;
}

/** The corrected figures of a revision, one per field whose value changed, in field order. */
export function correctionsOf(revision: CorrectingRevision): PlacedCorrection[] {
  const placed: PlacedCorrection[] = [];
  CORRECTED_FIELDS.forEach((field, index) => {
    const old = revision.before?.[field] ?? null;
    const value = revision.after?.[field] ?? null;
    if (old === value) return;
    placed.push({
      position: {
        seq: revision.seq,
        id: revision.id,
        field: revision.part * CORRECTED_FIELDS.length + index,
      },
      correction: {
        at: new Date(revision.at).toISOString(),
        date: revision.date,
        country: revision.country,
        field,
        old,
        new: value,
        change: revision.kind,
        source: correctionSource(revision.actor),
      },
    });
  });
  return placed;
}

/**
 * A page of corrections as the list answers it: JSON `{corrections, next}`, or one CSV row or
 * NDJSON line each (`next` in the `Link` header). `next`: the last correction's cursor.
 */
export function correctionsPage(placed: PlacedCorrection[], format: ListFormat): CorrectionsPage {
  const corrections = placed.map((p) => p.correction);
  const last = placed[placed.length - 1];
  const next = last ? encodeCorrectionCursor(last.position) : null;
  if (format === 'json') return { text: JSON.stringify({ corrections, next }), next };
  return { text: listText(format, CORRECTION_COLUMNS, corrections), next };
}

/** Every correction of `pages` as chunks of `format` (a download, decision 0049). */
export async function* correctionsChunks(
  pages: AsyncIterable<PlacedCorrection[]>,
  format: ListFormat,
): AsyncGenerator<string> {
  async function* corrections() {
    for await (const page of pages) yield page.map((p) => p.correction);
  }
  yield* listChunks(format, CORRECTION_COLUMNS, corrections());
}

/** A correction without what only token holders see. */
export function publicCorrection({
  country: _c,
  source: _s,
  ...rest
}: Correction): PublicCorrection {
  return rest;
}
