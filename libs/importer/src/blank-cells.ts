import { RecordValues } from '@app/diseases';

export const FIGURES = ['total_cases', 'new_cases', 'total_deaths', 'new_deaths'] as const;
export type Figures = Pick<RecordValues, (typeof FIGURES)[number]>;

/** The cumulative and the new figure of one kind (cases, deaths). */
const PAIRS = [
  ['total_cases', 'new_cases'],
  ['total_deaths', 'new_deaths'],
] as const;

/** How a blank cell was filled; the import summary counts each, per field. */
export type FillKind =
  /** A cumulative total blank before the place's first figure of that kind: 0. */
  | 'zero-before-first'
  /** A cumulative total blank after a known one, with no new figure: carried forward. */
  | 'carried-forward'
  /** A cumulative total blank with a known new figure: the previous total plus the new figure. */
  | 'total-from-new'
  /** A new figure blank: this total minus the previous total of the place (0 before the first). */
  | 'new-from-totals';

export const FILL_KINDS: Record<FillKind, string> = {
  'zero-before-first': 'blank before the first report, set to 0',
  'carried-forward': 'blank after a known total, carried forward',
  'total-from-new': 'blank, previous total plus the new figure',
  'new-from-totals': 'blank, derived from the totals (this minus the previous)',
};

/** Fills counted by field and kind, e.g. `{ "total_deaths": { "zero-before-first": 12 } }`. */
export type FillCounts = Partial<Record<keyof Figures, Partial<Record<FillKind, number>>>>;

const NO_FILLS: [keyof Figures, FillKind][] = [];
const SEEN_BOTH = { total_cases: true, total_deaths: true };

export interface PlaceState {
  date: string;
  total_cases: number;
  total_deaths: number;
  /** Whether a cumulative figure of that kind has been seen (0 before is "before the first"). */
  seen: { total_cases: boolean; total_deaths: boolean };
}

export type FillOutcome =
  | { ok: true; figures: Figures; fills: [keyof Figures, FillKind][]; seen: PlaceState['seen'] }
  | { ok: false; problem: string };

/**
 * Fills blank figure cells as the sources mean them (OWID leaves `total_deaths` blank until the
 * first death; the WHO leaves `New_*` blank in weeks without a report), from the previous row of
 * the same place in the file: the state is kept per place, so a file in date order per place is
 * filled whatever the order of places. A row with a blank cell that does not follow its place's
 * previous row in time cannot be filled from it and is refused (reported with its line).
 */
export class BlankCellFiller {
  readonly counts: FillCounts = {};
  private readonly places = new Map<string, PlaceState>();

  /** The row's figures with its blank cells filled; nothing is counted until `accept`. */
  fill(place: string, date: string, given: Partial<Figures>): FillOutcome {
    const previous = this.places.get(place);
    const complete = FIGURES.every((f) => given[f] !== undefined);
    if (!complete && previous && date <= previous.date) {
      return {
        ok: false,
        problem:
          `cellule vide non remplie : la ligne précédente de ce lieu est du ${previous.date} ` +
          '(les lignes de chaque lieu doivent suivre l’ordre des dates pour remplir une cellule vide)',
      };
    }
    if (complete) return { ok: true, figures: given as Figures, fills: NO_FILLS, seen: SEEN_BOTH };
    const figures = { ...given } as Figures;
    const fills: [keyof Figures, FillKind][] = [];
    for (const [total, fresh] of PAIRS) {
      const before = previous?.[total] ?? 0;
      if (given[total] === undefined) {
        if (given[fresh] !== undefined) {
          figures[total] = before + given[fresh];
          fills.push([total, 'total-from-new']);
        } else {
          figures[total] = before;
          fills.push([total, previous?.seen[total] ? 'carried-forward' : 'zero-before-first']);
        }
      }
      if (given[fresh] === undefined) {
        figures[fresh] = figures[total] - before;
        fills.push([fresh, 'new-from-totals']);
      }
    }
    const seen = {
      total_cases: (previous?.seen.total_cases ?? false) || given.total_cases !== undefined,
      total_deaths: (previous?.seen.total_deaths ?? false) || given.total_deaths !== undefined,
    };
    return { ok: true, figures, fills, seen };
  }

  /** Counts a filled row's fills and makes it its place's previous row (if it is the latest). */
  accept(place: string, date: string, outcome: Extract<FillOutcome, { ok: true }>): void {
    for (const [field, kind] of outcome.fills) this.count(field, kind);
    const previous = this.places.get(place);
    if (previous && date <= previous.date) return;
    const { total_cases, total_deaths } = outcome.figures;
    this.places.set(place, { date, total_cases, total_deaths, seen: outcome.seen });
  }

  private count(field: keyof Figures, kind: FillKind): void {
    const byKind = (this.counts[field] ??= {});
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
}
