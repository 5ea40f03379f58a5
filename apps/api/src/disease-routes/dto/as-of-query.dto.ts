import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsAsOf } from '@app/diseases';

/** Description of `as_of`, the same on every route that takes it. */
const AS_OF_DESCRIPTION =
  'The answer as the service would have given it at that instant, from the history of the ' +
  'records: records deleted since reappear, later ones are absent, values are as they were. ' +
  'An ISO 8601 date (the end of that day, UTC) or date-time with its zone (`Z` or `±hh:mm`); ' +
  'not in the future, nor before the moment the history was pruned from, if it was (400).';

/** `as_of`: the answer as of an instant (`/data`, the public country route). */
export class AsOfQueryDto {
  @ApiPropertyOptional({
    type: 'string',
    example: '2026-11-20T08:00:00Z',
    description: AS_OF_DESCRIPTION,
  })
  @IsOptional()
  @IsAsOf()
  as_of?: string;
}
