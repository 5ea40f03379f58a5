import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  FIGURE_PERIODS,
  FigurePeriod,
  FigureQuery,
  IsFigureCursor,
  IsIntegerFrom,
  IsIntegerInRange,
  MAX_LAG_DAYS,
  IsMetricList,
  IsOneOf,
  ListFormat,
  METRICS,
  DEFAULT_SERIES_LIMIT,
  toInteger,
} from '@app/diseases';
import { REGION_NAMES } from '@app/countries';
import { AsOfQueryDto } from './as-of-query.dto';
import { CountryField, FormatField, FromDateField, ToDateField } from './query-fields';

/** `/series`: `as_of` (AsOfQueryDto) and the series' own parameters. */
export class SeriesQueryDto extends AsOfQueryDto implements FigureQuery {
  @CountryField(
    'A country (any name or code that `/data` accepts) or a region by name or code, case ' +
      `ignored (\`GET /api/regions\` lists them): ${REGION_NAMES.join(', ')}. ` +
      'Without it: every place, by place then date, in cursor pages like `/data`. ' +
      'Neither a country, a stored place nor a region: 400',
  )
  country?: string;

  @FromDateField('2022-06-01')
  from?: string;

  @ToDateField('2022-12-31')
  to?: string;

  @ApiPropertyOptional({
    example: 'new_cases,new_cases_smoothed_per_million',
    description:
      `Comma-separated, in the order wanted (default: all): ${METRICS.join(', ')}. ` +
      'An unknown name: 400 naming it (docs/derived-figures.md defines each)',
  })
  @IsOptional()
  @IsMetricList()
  metrics?: string;

  @ApiPropertyOptional({
    enum: FIGURE_PERIODS,
    default: 'day',
    description:
      '`week`: ISO weeks (Monday to Sunday) dated by their Sunday, `new_*` summed, `total_*` and ' +
      "averages of the week's last day with a record; `from`/`to` widened to whole weeks",
  })
  @IsOptional()
  @IsOneOf(FIGURE_PERIODS)
  period?: FigurePeriod;

  @ApiPropertyOptional({
    type: 'string',
    example: 'MjAyMi0wNi0wMSxmcmFuY2U',
    description:
      'Cursor of the next page, as the `Link` header (`rel="next"`) of the previous one gives it. Opaque',
  })
  @IsOptional()
  @IsFigureCursor()
  after?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description:
      `Rows per page: without \`country\`, ${DEFAULT_SERIES_LIMIT} unless given (large pages are ` +
      "streamed); with one, the place's whole series unless given",
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerFrom(1)
  limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_LAG_DAYS,
    example: 7,
    description:
      'Each stored figure as it stood this many days after its own date (its latest version ' +
      'issued before the end of that day, UTC; the day is absent when none was), and the metrics ' +
      'computed from those values (docs/vintages.md). Needs `country`, a country or stored place ' +
      '(a region, or no `country`: 400); not with `as_of` (400)',
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerInRange(0, MAX_LAG_DAYS)
  lag?: number;

  @FormatField()
  format?: ListFormat;
}
