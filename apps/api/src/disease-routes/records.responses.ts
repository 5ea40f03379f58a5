import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FIGURE_FLAGS } from '@app/diseases';
import { CORRECTED_FIELDS, CORRECTION_KINDS, VINTAGE_FIELDS } from '@app/database';

/** An array of figures rounded to 3 decimals, null where one cannot be computed. */
const NULLABLE_NUMBERS = { type: 'array', items: { type: 'number', nullable: true } } as const;

export class RecordResponse {
  @ApiProperty({ example: 71285, type: 'integer' }) id: number;
  @ApiProperty({ example: '2021-03-15', format: 'date' }) date: string;
  @ApiProperty({ example: 'France' }) country: string;
  @ApiProperty({ example: 4138369, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 6474, type: 'number' }) new_cases: number;
  @ApiProperty({ example: 90916, type: 'integer' }) total_deaths: number;
  @ApiProperty({ example: 333, type: 'number' }) new_deaths: number;
}

export class TotalsResponse {
  @ApiProperty({ example: 676568028, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 6881787, type: 'integer' }) total_deaths: number;
}

export class CountrySummaryResponse {
  @ApiProperty({ example: 'France' }) country: string;
  @ApiProperty({ example: 1143, type: 'integer' }) records: number;
  @ApiProperty({ example: '2020-01-22', format: 'date' }) first_date: string;
  @ApiProperty({ example: '2023-03-09', format: 'date' }) last_date: string;
}

export class CountryListItemResponse extends CountrySummaryResponse {
  @ApiProperty({
    example: 'FR',
    type: 'string',
    nullable: true,
    description: 'ISO 3166-1 alpha-2 code; null for a place that is not a country',
  })
  iso2: string | null;
  @ApiProperty({
    example: 'FRA',
    type: 'string',
    nullable: true,
    description: 'ISO 3166-1 alpha-3',
  })
  iso3: string | null;
}

export class CountryStatsResponse extends CountrySummaryResponse {
  @ApiProperty({ example: 39866718, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 166176, type: 'integer' }) total_deaths: number;
  @ApiProperty({
    example: 30822,
    type: 'number',
    description: 'Sum of new_cases over the 7 days ending at last_date',
  })
  new_cases_7d: number;
  @ApiProperty({ example: 126, type: 'number' }) new_deaths_7d: number;
  @ApiProperty({
    example: 0.0041682889471864725,
    type: 'number',
    nullable: true,
    description: 'total_deaths / total_cases; null when no cases',
  })
  case_fatality_rate: number | null;
}

export class TopCountryResponse {
  @ApiProperty({ example: 'United States' }) country: string;
  @ApiProperty({ example: '2023-10-17', format: 'date' }) date: string;
  @ApiProperty({ example: 30680, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 55, type: 'integer' }) total_deaths: number;
}

/** The MPOX summary (examples from the OWID data of 2023-11-16). */
export class DiseaseSummaryResponse {
  @ApiProperty({ example: 91468, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 168, type: 'integer' }) total_deaths: number;
  @ApiProperty({ example: 116, type: 'integer' }) countries: number;
  @ApiProperty({ example: '2023-11-16', nullable: true, type: 'string', format: 'date' })
  last_date: string | null;
  @ApiProperty({ type: [TopCountryResponse] }) top_countries: TopCountryResponse[];
}

export class MpoxTotalsResponse {
  @ApiProperty({ example: 91468, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 168, type: 'integer' }) total_deaths: number;
}

export class StatsSummaryResponse {
  @ApiProperty({ type: TotalsResponse }) covid: TotalsResponse;
  @ApiProperty({ type: MpoxTotalsResponse }) mpox: MpoxTotalsResponse;
}

// The schema keeps its first name, so that clients generated from the document keep their types.
@ApiSchema({ name: 'WeeklyHistoryResponse' })
export class WeeklyAnswerResponse {
  @ApiProperty({
    example: 'Germany',
    nullable: true,
    type: 'string',
    description: 'The name as stored (most recent record); null for the world',
  })
  country: string | null;
  @ApiProperty({
    example: ['2023-02-26', '2023-03-05', '2023-03-12'],
    type: [String],
    description: "Each ISO week's Sunday (weeks run Monday to Sunday), oldest first",
  })
  weeks: string[];
  @ApiProperty({
    example: [7, 7, 4],
    type: [Number],
    description: 'Days of the week with records (7-day average = new_cases / days)',
  })
  days: number[];
  @ApiProperty({
    example: [64032, 45291, 29020],
    type: [Number],
    description: 'Sums over the week',
  })
  new_cases: number[];
  @ApiProperty({ example: [1023, 856, 503], type: [Number], description: 'Sums over the week' })
  new_deaths: number[];
  @ApiProperty({
    example: [38151545, 38196836, 38225856],
    type: [Number],
    description: "The week's last day with records",
  })
  total_cases: number[];
  @ApiProperty({ example: [167643, 168499, 169002], type: [Number] })
  total_deaths: number[];
  @ApiProperty({
    example: 83783945,
    type: 'integer',
    nullable: true,
    description:
      "The population the per-million figures used (the last week's year, else the nearest year " +
      'in the population table; the world: the sum over its countries); null without one',
  })
  population: number | null;
  @ApiProperty({
    ...NULLABLE_NUMBERS,
    example: [764.253, 540.573, 346.372],
    description: "The week's sum per million people",
  })
  new_cases_per_million: (number | null)[];
  @ApiProperty({
    ...NULLABLE_NUMBERS,
    example: [12.21, 10.217, 6.004],
    description: "The week's sum per million people",
  })
  new_deaths_per_million: (number | null)[];
  @ApiProperty({
    ...NULLABLE_NUMBERS,
    example: [455357.48, 455898.07, 456244.44],
    description: 'total_cases per million people',
  })
  total_cases_per_million: (number | null)[];
  @ApiProperty({
    ...NULLABLE_NUMBERS,
    example: [2000.907, 2011.124, 2017.128],
    description: 'total_deaths per million people',
  })
  total_deaths_per_million: (number | null)[];
  @ApiProperty({
    ...NULLABLE_NUMBERS,
    example: [9147.429, 6470.143, null],
    description:
      "Our World in Data's 7-day average (the 7 calendar days ending then) of the week's last day " +
      'with a record; null unless each of those 7 days has a record',
  })
  new_cases_smoothed: (number | null)[];
  @ApiProperty({
    ...NULLABLE_NUMBERS,
    example: [146.143, 122.286, null],
    description: 'As new_cases_smoothed',
  })
  new_deaths_smoothed: (number | null)[];
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string', enum: [...FIGURE_FLAGS] } },
    example: [[], ['negative_new_cases', 'corrected'], []],
    description:
      "The union of the flags of the week's days (docs/corrections.md): a negative daily " +
      'figure, or a stored figure corrected after it was first published; [] when none',
  })
  flags: string[][];
}

export class CountryLatestResponse {
  @ApiProperty({ example: 'Germany' }) country: string;
  @ApiProperty({ example: '2023-03-09', format: 'date', description: 'Its most recent record' })
  date: string;
  @ApiProperty({ example: 38249060, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 168935, type: 'integer' }) total_deaths: number;
}

export class RevisionResponse {
  @ApiProperty({ example: 2, type: 'integer', description: 'Position in the history, from 1' })
  revision: number;
  @ApiProperty({ example: '2026-11-26T10:42:12.345Z', format: 'date-time' }) at: string;
  @ApiProperty({
    example: 'partner-a',
    description:
      "The token's client, `import:<file or URL>`, `sync:<URL>`, `cli:<command>` or " +
      '`migration:baseline` (records that existed when the history began)',
  })
  actor: string;
  @ApiProperty({ enum: ['create', 'update', 'delete'], example: 'update' }) change: string;
  // Written by @nestjs/swagger as `type: object, nullable, allOf: [the record]` (OpenAPI 3.0).
  @ApiProperty({
    type: RecordResponse,
    nullable: true,
    description: 'The record after the change; null for a deletion',
  })
  record: RecordResponse | null;
}

export class ChangeResponse {
  @ApiProperty({
    example: 'MTIuMzQ1Ng',
    description: 'Where the feed resumes after this change (`after`); opaque',
  })
  cursor: string;
  @ApiProperty({ example: '2026-11-26T10:42:12.345Z', format: 'date-time' }) at: string;
  @ApiProperty({ example: 'partner-a', description: 'As in the history of a record' })
  actor: string;
  @ApiProperty({ enum: ['create', 'update', 'delete'], example: 'update' }) change: string;
  @ApiProperty({ example: 71285, type: 'integer', description: "The record's id" }) id: number;
  @ApiProperty({
    type: RecordResponse,
    nullable: true,
    description: 'The record after the change; null for a deletion',
  })
  record: RecordResponse | null;
}

export class ChangeFeedResponse {
  @ApiProperty({ type: [ChangeResponse], description: 'In the order the changes were committed' })
  changes: ChangeResponse[];
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'MTIuMzQ1Ng',
    description:
      "The last change's cursor: the next page is `after=<next>`; null when the page is empty " +
      '(poll again later with the same query)',
  })
  next: string | null;
}

export class PublicCorrectionResponse {
  @ApiProperty({
    example: '2026-11-26T10:42:12.345Z',
    format: 'date-time',
    description: 'When the stored figure changed',
  })
  at: string;
  @ApiProperty({ example: '2021-03-15', format: 'date', description: "The figure's own date" })
  date: string;
  @ApiProperty({ enum: CORRECTED_FIELDS, example: 'total_cases' }) field: string;
  @ApiProperty({
    example: 4138369,
    type: 'number',
    nullable: true,
    description: 'Before the change; null when the record was created again (`restore`)',
  })
  old: number | null;
  @ApiProperty({
    example: 4138412,
    type: 'number',
    nullable: true,
    description: 'After the change; null when the record was deleted (`delete`)',
  })
  new: number | null;
  @ApiProperty({ enum: CORRECTION_KINDS, example: 'update' }) change: string;
}

export class CorrectionResponse extends PublicCorrectionResponse {
  @ApiProperty({ example: 'France' }) country: string;
  @ApiProperty({
    example: 'import:time_series_covid19_confirmed_global.csv',
    description:
      'Where the change came from: `import:<source>` or `sync:<source>` (its name, never a ' +
      "query string or a server path), the token's client for API writes, `restore` or " +
      '`revert` for the command line',
  })
  source: string;
}

export class CorrectionsPageResponse {
  @ApiProperty({
    type: [CorrectionResponse],
    description: 'In the order the changes were committed; a change of several figures: one each',
  })
  corrections: CorrectionResponse[];
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'MTIuMzQ1Ni4w',
    description:
      "The last correction's cursor: the next page is `after=<next>`; null when the page is " +
      'empty (ask again later with the same query)',
  })
  next: string | null;
}

export class CountryCorrectionsResponse {
  @ApiProperty({ example: 'France', description: 'The name as stored (most recent record)' })
  country: string;
  @ApiProperty({
    type: [PublicCorrectionResponse],
    description: 'Latest change first; without their source (docs/corrections.md)',
  })
  corrections: PublicCorrectionResponse[];
}

export class VintageResponse {
  @ApiProperty({ example: '2021-03-02', format: 'date', description: "The figure's own date" })
  date: string;
  @ApiProperty({
    example: 'Chile',
    description: 'The place as its latest revision that date names it',
  })
  country: string;
  @ApiProperty({
    example: 'CL',
    type: 'string',
    nullable: true,
    description: 'ISO 3166-1 alpha-2 code; null for a place that is not a country',
  })
  iso_code: string | null;
  @ApiProperty({ enum: VINTAGE_FIELDS, example: 'total_cases' }) field: string;
  @ApiProperty({
    example: 112,
    type: 'number',
    nullable: true,
    description:
      'The value this version published; null when the figure was deleted (or its record moved ' +
      'to another place or date)',
  })
  value: number | null;
  @ApiProperty({
    example: '2026-11-26T10:42:12.345Z',
    format: 'date-time',
    description: 'When the service stored this value: the commit of its revision',
  })
  issued_at: string;
  @ApiProperty({
    example: 2095,
    type: 'integer',
    description: "Whole days from the figure's date (00:00 UTC) to `issued_at`",
  })
  lag: number;
}

export class VintagesPageResponse {
  @ApiProperty({
    type: [VintageResponse],
    description: 'By place, date, figure, then as issued; the first published version included',
  })
  vintages: VintageResponse[];
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'MjAyMS0wMy0wMiwwLjEyLjEuMzQsY2hpbGU',
    description: 'The next page is `after=<next>`; null on the last page',
  })
  next: string | null;
}
