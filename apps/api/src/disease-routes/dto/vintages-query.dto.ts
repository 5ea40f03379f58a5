import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  DEFAULT_VINTAGES_LIMIT,
  IsInstant,
  IsIntegerInRange,
  IsVintageCursor,
  IsVintageFieldList,
  ListFormat,
  MAX_VINTAGES_LIMIT,
  VintagesQuery,
  toInteger,
} from '@app/diseases';
import { VINTAGE_FIELDS } from '@app/database';
import { CountryField, FormatField, FromDateField, ToDateField } from './query-fields';

/** `/vintages`: which versions (place, figures' dates, figures, moment issued) and the page. */
export class VintagesQueryDto implements VintagesQuery {
  @CountryField(
    'A stored place by any name or code that `/data` accepts (regions are not summed: their ' +
      'sums are not stored figures); without it: every place',
  )
  country?: string;

  @FromDateField('2021-01-01', "First date of the figures' own dates, inclusive")
  from?: string;

  @ToDateField(
    '2021-12-31',
    "Last date of the figures' own dates, inclusive; not before `from` (400)",
  )
  to?: string;

  @ApiPropertyOptional({
    example: 'total_cases,new_cases',
    description: `Comma-separated figures (default: all): ${VINTAGE_FIELDS.join(', ')}; another name: 400`,
  })
  @IsOptional()
  @IsVintageFieldList()
  fields?: string;

  @ApiPropertyOptional({
    type: 'string',
    example: '2026-11-26T08:00:00Z',
    description:
      'Versions issued at this time or later (an ISO 8601 date, the start of that day in UTC, ' +
      'or date-time with its offset)',
  })
  @IsOptional()
  @IsInstant()
  issued_since?: string;

  @ApiPropertyOptional({
    type: 'string',
    example: '2026-11-27',
    description: 'Versions issued before this time (excluded); not before `issued_since` (400)',
  })
  @IsOptional()
  @IsInstant()
  issued_until?: string;

  @ApiPropertyOptional({
    type: 'string',
    example: 'MjAyMS0wMy0wMiwwLjEyLjEuMzQsY2hpbGU',
    description:
      'Where to resume: the `next` of the previous page (the `Link` header for CSV and NDJSON), ' +
      'with the same filters. Opaque',
  })
  @IsOptional()
  @IsVintageCursor()
  after?: string;

  @ApiPropertyOptional({
    example: 1000,
    default: DEFAULT_VINTAGES_LIMIT,
    type: 'integer',
    minimum: 1,
    maximum: MAX_VINTAGES_LIMIT,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerInRange(1, MAX_VINTAGES_LIMIT)
  limit?: number;

  @FormatField()
  format?: ListFormat;
}
