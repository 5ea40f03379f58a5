import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  CorrectionsQuery,
  DEFAULT_CORRECTIONS_LIMIT,
  DEFAULT_PUBLIC_CORRECTIONS,
  IsCorrectionCursor,
  IsInstant,
  IsIntegerInRange,
  ListFormat,
  MAX_CORRECTIONS_LIMIT,
  MAX_PUBLIC_CORRECTIONS,
  toInteger,
} from '@app/diseases';
import { CountryField, FormatField, FromDateField, ToDateField } from './query-fields';

/** `/corrections`: which corrections (place, figures' dates, moment of change) and the page. */
export class CorrectionsQueryDto implements CorrectionsQuery {
  @CountryField('Any name or code that `/data` accepts; without it: every place')
  country?: string;

  @FromDateField('2021-01-01', "First date of the figures' own dates, inclusive")
  from?: string;

  @ToDateField(
    '2021-12-31',
    "Last date of the figures' own dates, inclusive; not before `from` (400)",
  )
  to?: string;

  @ApiPropertyOptional({
    type: 'string',
    example: '2026-11-26T08:00:00Z',
    description:
      'Changes made at this time or later (an ISO 8601 date, the start of that day in UTC, or ' +
      'date-time with its offset); not in the future (400)',
  })
  @IsOptional()
  @IsInstant()
  since?: string;

  @ApiPropertyOptional({
    type: 'string',
    example: '2026-11-27',
    description: 'Changes made before this time (excluded); not before `since` (400)',
  })
  @IsOptional()
  @IsInstant()
  until?: string;

  @ApiPropertyOptional({
    type: 'string',
    example: 'MTIuMzQ1Ni4w',
    description:
      'Where to resume: the `next` of the previous page (the `Link` header for CSV and NDJSON), ' +
      'with the same filters. Opaque',
  })
  @IsOptional()
  @IsCorrectionCursor()
  after?: string;

  @ApiPropertyOptional({
    example: 1000,
    default: DEFAULT_CORRECTIONS_LIMIT,
    type: 'integer',
    minimum: 1,
    maximum: MAX_CORRECTIONS_LIMIT,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerInRange(1, MAX_CORRECTIONS_LIMIT)
  limit?: number;

  @FormatField()
  format?: ListFormat;
}

/** A country's latest corrections on its public page: how many. */
export class PublicCorrectionsQueryDto {
  @ApiPropertyOptional({
    example: 20,
    default: DEFAULT_PUBLIC_CORRECTIONS,
    type: 'integer',
    minimum: 1,
    maximum: MAX_PUBLIC_CORRECTIONS,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerInRange(1, MAX_PUBLIC_CORRECTIONS)
  limit?: number;
}
