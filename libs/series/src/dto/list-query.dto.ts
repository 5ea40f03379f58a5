import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { IsApiDate, IsCountryName, IsIntegerFrom, toInteger } from './validators';

export const DEFAULT_LIST_LIMIT = 100;

export class ListQueryDto {
  @ApiPropertyOptional({ example: 'France', description: 'Matched after trimming, ignoring case' })
  @IsOptional()
  @IsCountryName()
  country?: string;

  @ApiPropertyOptional({ example: '2021-01-01', description: 'First date, inclusive' })
  @IsOptional()
  @IsApiDate({ range: false })
  from?: string;

  @ApiPropertyOptional({ example: '2021-12-31', description: 'Last date, inclusive' })
  @IsOptional()
  @IsApiDate({ range: false })
  to?: string;

  @ApiPropertyOptional({
    example: 100,
    default: DEFAULT_LIST_LIMIT,
    minimum: 1,
    description: 'No upper bound: large results are streamed',
  })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerFrom(1)
  limit?: number;

  @ApiPropertyOptional({ example: 0, default: 0, minimum: 0 })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerFrom(0)
  offset?: number;
}
