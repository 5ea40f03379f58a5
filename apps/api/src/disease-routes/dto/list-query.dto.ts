import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  DEFAULT_LIST_LIMIT,
  IsIntegerFrom,
  IsListCursor,
  ListFormat,
  ListQuery,
  toInteger,
} from '@app/diseases';
import { AsOfQueryDto } from './as-of-query.dto';
import { CountryField, FormatField, FromDateField, ToDateField } from './query-fields';

/** `as_of` (AsOfQueryDto) and the list's own parameters. */
export class ListQueryDto extends AsOfQueryDto implements ListQuery {
  @CountryField('Matched after trimming, ignoring case')
  country?: string;

  @FromDateField('2021-01-01')
  from?: string;

  @ToDateField('2021-12-31')
  to?: string;

  @ApiPropertyOptional({
    example: 100,
    default: DEFAULT_LIST_LIMIT,
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description:
      'No practical upper bound (limit=100000000 gets everything): large results are streamed',
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerFrom(1)
  limit?: number;

  @ApiPropertyOptional({
    example: 0,
    default: 0,
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Records skipped; not with `after` (400)',
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerFrom(0)
  offset?: number;

  @ApiPropertyOptional({
    type: 'string',
    example: 'MjAyMS0wMy0wMSwxMjM0',
    description:
      'Cursor of the next page, as the `Link` header (`rel="next"`) of the previous one gives ' +
      "it: the page starts after that page's last record, however the list changed meanwhile. " +
      'Opaque; not with `offset` (400)',
  })
  @IsOptional()
  @IsListCursor()
  after?: string;

  @FormatField()
  format?: ListFormat;
}
