import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  FIGURE_MAX,
  IsApiDate,
  IsCount,
  IsRecordCountry,
  IsDailyFigure,
  RecordValues,
} from '@app/diseases';

/** Body of POST and PUT (a full replacement), for COVID and MPOX alike. */
/**
 * A legacy field, accepted and ignored. OpenAPI 3.0 wants `nullable` beside a `type`, so null is
 * allowed on one branch only (`oneOf` must match exactly one).
 */
const LegacyField = () =>
  ApiPropertyOptional({
    description: 'Legacy field: accepted and ignored (a number, string, boolean or null)',
    oneOf: [{ type: 'number', nullable: true }, { type: 'string' }, { type: 'boolean' }],
  });

export class RecordBodyDto implements RecordValues {
  @ApiProperty({
    example: '2021-03-15',
    format: 'date',
    description: 'YYYY-MM-DD, a real calendar date from 1900-01-01 to tomorrow (UTC)',
  })
  @IsApiDate({ range: true })
  date: string;

  @ApiProperty({
    example: 'France',
    minLength: 1,
    maxLength: 100,
    description:
      'Stored trimmed; 1 to 100 characters once trimmed (surrounding blanks are not counted); no control characters; not starting with =, +, - or @ (a spreadsheet would run it as a formula)',
  })
  @IsRecordCountry()
  country: string;

  @ApiProperty({ example: 4078133, minimum: 0, maximum: FIGURE_MAX, type: 'integer' })
  @IsCount()
  total_cases: number;

  @ApiProperty({
    example: 29975,
    type: 'number',
    minimum: -FIGURE_MAX,
    maximum: FIGURE_MAX,
    description: 'May be negative or decimal',
  })
  @IsDailyFigure()
  new_cases: number;

  @ApiProperty({ example: 91170, minimum: 0, maximum: FIGURE_MAX, type: 'integer' })
  @IsCount()
  total_deaths: number;

  @ApiProperty({
    example: 231.5,
    type: 'number',
    minimum: -FIGURE_MAX,
    maximum: FIGURE_MAX,
    description: 'May be negative or decimal',
  })
  @IsDailyFigure()
  new_deaths: number;

  @LegacyField()
  @Allow()
  active_cases?: unknown;

  @LegacyField()
  @Allow()
  total_recovered?: unknown;

  @LegacyField()
  @Allow()
  daily_recovered?: unknown;
}
