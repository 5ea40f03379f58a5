/** One country's population in one year, as the population table holds it. */
export interface PopulationEntry {
  iso3: string;
  year: number;
  population: number;
}

/**
 * The population table in memory, by country (ISO alpha-3): a figure uses the population of its
 * own year when the table has it, else of the nearest year (the earlier of two as near).
 */
export class PopulationTable {
  private readonly byCountry = new Map<string, PopulationEntry[]>();

  constructor(entries: PopulationEntry[]) {
    for (const entry of entries) {
      const list = this.byCountry.get(entry.iso3) ?? [];
      list.push(entry);
      this.byCountry.set(entry.iso3, list);
    }
    for (const list of this.byCountry.values()) list.sort((a, b) => a.year - b.year);
  }

  /** The population used for `iso3` in `year`; null when the table has none for that country. */
  of(iso3: string | null | undefined, year: number): number | null {
    const list = iso3 ? this.byCountry.get(iso3) : undefined;
    if (!list) return null;
    let best = list[0];
    for (const entry of list) {
      if (Math.abs(entry.year - year) < Math.abs(best.year - year)) best = entry;
    }
    return best.population;
  }

  /** The sum over `iso3s` of each one's population in `year` (those without one count 0); null if none has one. */
  sum(iso3s: Iterable<string>, year: number): number | null {
    let total: number | null = null;
    for (const iso3 of iso3s) {
      const population = this.of(iso3, year);
      if (population !== null) total = (total ?? 0) + population;
    }
    return total;
  }
}
