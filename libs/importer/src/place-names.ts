import { countryKey } from '@app/common';
import { resolveCountry } from '@app/countries';

interface Place {
  /** The name stored: the canonical one for a country, else the source's. */
  name: string;
  key: string;
  recognised: boolean;
}

/**
 * The names of an import's places, resolved once per spelling (the file repeats each name on
 * every row): a country is stored under its canonical name, any other place as the source gives
 * it. Counts the rows renamed and the rows of unrecognised places, for the summary.
 */
export class PlaceNames {
  /** Rows stored under another name than the source's: `{ "US": { to: "United States", rows } }`. */
  readonly renamed: Record<string, { to: string; rows: number }> = {};
  /** Rows of places that are not countries (kept as given): `{ "Diamond Princess": rows }`. */
  readonly unrecognised: Record<string, number> = {};
  private readonly known = new Map<string, Place>();

  place(name: string, code: string | undefined): Place {
    const memo = `${code ?? ''}|${name}`;
    let place = this.known.get(memo);
    if (!place) {
      const identity = resolveCountry(name, code);
      const stored = identity?.name ?? name;
      place = { name: stored, key: countryKey(stored), recognised: identity !== undefined };
      this.known.set(memo, place);
    }
    if (!place.recognised) this.unrecognised[name] = (this.unrecognised[name] ?? 0) + 1;
    else if (place.name !== name) {
      const renamed = (this.renamed[name] ??= { to: place.name, rows: 0 });
      renamed.rows++;
    }
    return place;
  }
}
