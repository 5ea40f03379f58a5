import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { DEFAULT_MAP_METRIC, IsApiDate, IsOneOf, METRICS, MapQuery } from '@app/diseases';

/** `/public/map`: the metric, and a date or a week (not both). */
export class MapQueryDto implements MapQuery {
  @ApiPropertyOptional({ enum: METRICS, default: DEFAULT_MAP_METRIC })
  @IsOptional()
  @IsOneOf(METRICS)
  metric?: string;

  @ApiPropertyOptional({
    example: '2022-08-01',
    format: 'date',
    description: 'The day (default: the latest date with a record); not with `week` (400)',
  })
  @IsOptional()
  @IsApiDate({ range: false })
  date?: string;

  @ApiPropertyOptional({
    example: '2022-08-01',
    format: 'date',
    description:
      "Any date of the ISO week wanted (Monday to Sunday): the week's figures as `period=week` gives them",
  })
  @IsOptional()
  @IsApiDate({ range: false })
  week?: string;
}
