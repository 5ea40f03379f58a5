import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  DEFAULT_LIST_LIMIT,
  IsApiDate,
  IsCountryName,
  IsIntegerFrom,
  IsListCursor,
  IsListFormat,
  LIST_FORMATS,
  ListFormat,
  ListQuery,
  toInteger,
} from '@app/series';
import { FORMAT_DESCRIPTION } from '../../list-routes/list-route.decorator';
import { AsOfQueryDto } from './as-of-query.dto';

/** `as_of` (AsOfQueryDto) and the list's own parameters. */
export class ListQueryDto extends AsOfQueryDto implements ListQuery {
  @ApiPropertyOptional({
    example: 'France',
    minLength: 1,
    maxLength: 100,
    description: 'Matched after trimming, ignoring case',
  })
  @IsOptional()
  @IsCountryName()
  country?: string;

  @ApiPropertyOptional({
    example: '2021-01-01',
    format: 'date',
    description: 'First date, inclusive',
  })
  @IsOptional()
  @IsApiDate({ range: false })
  from?: string;

  @ApiPropertyOptional({
    example: '2021-12-31',
    format: 'date',
    description: 'Last date, inclusive; not before `from` (400)',
  })
  @IsOptional()
  @IsApiDate({ range: false })
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

  @ApiPropertyOptional({ enum: LIST_FORMATS, description: FORMAT_DESCRIPTION })
  @IsOptional()
  @IsListFormat()
  format?: ListFormat;
}
