import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  ChangeFeedQuery,
  DEFAULT_FEED_LIMIT,
  IsChangeCursor,
  IsIntegerInRange,
  IsInstant,
  ListFormat,
  MAX_FEED_LIMIT,
  toInteger,
} from '@app/diseases';
import { FormatField } from './query-fields';

export class ChangeFeedQueryDto implements ChangeFeedQuery {
  @ApiPropertyOptional({
    type: 'string',
    example: 'MTIuMzQ1Ng',
    description:
      'Where to resume: the `next` of the previous page (or the `cursor` of the last change ' +
      'read). Opaque; not with `since` (400)',
  })
  @IsOptional()
  @IsChangeCursor()
  after?: string;

  @ApiPropertyOptional({
    type: 'string',
    example: '2026-11-26T08:00:00Z',
    description:
      'Start with the first transaction committed at this time or later (an ISO 8601 date, the ' +
      'start of that day in UTC, or date-time with its offset); not in the future. Without ' +
      '`after` and `since`: from the start of the feed',
  })
  @IsOptional()
  @IsInstant()
  since?: string;

  @ApiPropertyOptional({
    example: 1000,
    default: DEFAULT_FEED_LIMIT,
    type: 'integer',
    minimum: 1,
    maximum: MAX_FEED_LIMIT,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerInRange(1, MAX_FEED_LIMIT)
  limit?: number;

  @FormatField()
  format?: ListFormat;
}
