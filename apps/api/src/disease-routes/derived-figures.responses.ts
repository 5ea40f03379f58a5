import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FIGURE_FLAGS, FIGURE_PERIODS, METRICS } from '@app/diseases';

const FIGURE = { type: 'number', nullable: true } as const;

/** A row of `/series`: the metrics asked for (all by default), rounded to 3 decimals. */
export class SeriesRowResponse {
  @ApiProperty({
    example: '2022-08-01',
    format: 'date',
    description: 'The day, or the week’s Sunday',
  })
  date: string;
  @ApiProperty({ example: 'France', description: 'The place (a region’s name for a region)' })
  country: string;
  @ApiProperty({
    example: 'FRA',
    type: 'string',
    nullable: true,
    description:
      "Our World in Data's `iso_code`: ISO 3166-1 alpha-3 for a country (Kosovo: XKX), " +
      '`OWID_WRL`, `OWID_AFR`, `OWID_ASI`, `OWID_EUR`, `OWID_NAM`, `OWID_OCE`, `OWID_SAM` for ' +
      'the regions; null (CSV: empty) for a stored place that is no country',
  })
  iso_code: string | null;
  @ApiPropertyOptional({
    example: 41,
    type: 'integer',
    description:
      'Regions only: member countries with a record that day (a week: its last day with one)',
  })
  countries_reporting?: number;
  @ApiPropertyOptional({ example: 2171, type: 'integer' }) total_cases?: number;
  @ApiPropertyOptional({ example: 51, type: 'number' }) new_cases?: number;
  @ApiPropertyOptional({ example: 0, type: 'integer' }) total_deaths?: number;
  @ApiPropertyOptional({ example: 0, type: 'number' }) new_deaths?: number;
  @ApiPropertyOptional({
    ...FIGURE,
    example: 67.571,
    description: 'Mean of the 7 calendar days ending that day; null unless each has a record',
  })
  new_cases_smoothed?: number | null;
  @ApiPropertyOptional({ ...FIGURE, example: 0 }) new_deaths_smoothed?: number | null;
  @ApiPropertyOptional({
    ...FIGURE,
    example: 31.857,
    description: 'Per million people of the population table; null without a population',
  })
  total_cases_per_million?: number | null;
  @ApiPropertyOptional({ ...FIGURE, example: 0.748 }) new_cases_per_million?: number | null;
  @ApiPropertyOptional({ ...FIGURE, example: 0.992 }) new_cases_smoothed_per_million?:
    number | null;
  @ApiPropertyOptional({ ...FIGURE, example: 0 }) total_deaths_per_million?: number | null;
  @ApiPropertyOptional({ ...FIGURE, example: 0 }) new_deaths_per_million?: number | null;
  @ApiPropertyOptional({ ...FIGURE, example: 0 }) new_deaths_smoothed_per_million?: number | null;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...FIGURE_FLAGS] },
    example: ['negative_new_cases', 'corrected'],
    description:
      'Left out when none (CSV: one column, values joined by `|`): `negative_new_cases`, ' +
      '`negative_new_deaths` (the daily figure is below zero; a region: its sum), `corrected` ' +
      "(a stored figure of that date changed after it was first published; a region: a member's). " +
      "Weeks: the union of their days' (docs/corrections.md)",
  })
  flags?: string[];
}

export class MapCountryResponse {
  @ApiProperty({ example: 'France' }) country: string;
  @ApiProperty({ example: 'FRA', description: 'ISO 3166-1 alpha-3' }) iso3: string;
  @ApiProperty({
    example: '2022-08-07',
    format: 'date',
    description:
      "The value's day (or week's Sunday): the country's latest at or before the answer's `date`",
  })
  date: string;
  @ApiProperty({ ...FIGURE, example: 0.992 }) value: number | null;
}

export class MapResponse {
  @ApiProperty({ enum: METRICS, example: 'new_cases_smoothed_per_million' }) metric: string;
  @ApiProperty({
    example: '2022-08-07',
    format: 'date',
    nullable: true,
    type: 'string',
    description: 'The day, or the week’s Sunday; null when there is no record at all',
  })
  date: string | null;
  @ApiProperty({ enum: FIGURE_PERIODS, example: 'week' }) period: string;
  @ApiProperty({
    type: [MapCountryResponse],
    description:
      'Every country with a record at or before that day or week: its latest value, by name',
  })
  countries: MapCountryResponse[];
}
