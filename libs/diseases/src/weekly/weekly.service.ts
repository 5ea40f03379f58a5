import { ApiError, MESSAGES } from '@app/common';
import { WORLD, countryLookupKey, regionNamed, resolveCountry } from '@app/countries';
import { DerivedFiguresRepository, RecordReadsRepository } from '@app/database';
import { DerivedFiguresService } from '../derived-figures/derived-figures.service';
import { CorrectionsService } from '../history/corrections.service';
import { CachedValue, ReadCache } from '../read-cache';
import { STREAM_TURNS } from '../stream-turns';
import { weeklyAnswer } from './weekly-answer';

/**
 * The public weekly answers of one disease (`/public/weekly`, `/public/country/:c/weekly`),
 * cached as JSON text. One instance per disease (`DiseaseModule.forDisease`).
 */
export class WeeklyService {
  constructor(
    private readonly repository: RecordReadsRepository,
    private readonly days: DerivedFiguresRepository,
    private readonly figures: DerivedFiguresService,
    private readonly corrections: CorrectionsService,
    private readonly cache: ReadCache,
  ) {}

  /**
   * A country's weekly answer (see `weeklyAnswer`), looked up as the public country route looks
   * it up; cached as JSON text.
   */
  countryJson(country: string): Promise<CachedValue<string>> {
    const key = countryLookupKey(country);
    return this.cache.getCached(`json:weekly:${key}`, async () => {
      const { country: name, days } = await this.repository.daily(key);
      if (name === null) throw ApiError.notFound(MESSAGES.countryNotFound);
      const table = await this.figures.population();
      const iso3 = resolveCountry(name)?.iso3 ?? null;
      const populationOf = this.figures.populationOf(table, { iso3 });
      const corrected = await this.corrections.correctedDates(key);
      return JSON.stringify(weeklyAnswer(name, days, populationOf, corrected));
    });
  }

  /** The world's weekly answer: each day's sums over the countries with a record that day. */
  worldJson(): Promise<CachedValue<string>> {
    return this.cache.getCached('json:weekly-world', async () => {
      // Sums over the countries that have a record on each date, oldest first.
      // A turn of the event loop between the reads: SQLite's resolve at once, and together with
      // the weeks' figures they held it too long (decision 0056).
      const days = await this.days.regionDays({ name: WORLD, keys: [] }, {});
      await STREAM_TURNS.next();
      const table = await this.figures.population();
      const populationOf = this.figures.populationOf(table, { region: regionNamed(WORLD) });
      const corrected = await this.corrections.regionCorrectedDates(WORLD);
      await STREAM_TURNS.next();
      return JSON.stringify(weeklyAnswer(null, days, populationOf, corrected));
    });
  }
}
