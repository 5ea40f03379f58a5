/** A correction as `GET /<key>/corrections` lists it (docs/corrections.md). */
export interface Correction {
  at: string;
  date: string;
  country: string;
  field: string;
  old: number | null;
  new: number | null;
  change: string;
  source: string;
}
