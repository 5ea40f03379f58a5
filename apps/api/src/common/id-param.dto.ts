import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIntegerFrom, toInteger } from '@app/series';

export class IdParamDto {
  @ApiProperty({ example: 42, minimum: 1, type: 'integer' })
  @Transform(toInteger)
  @IsIntegerFrom(1)
  id: number;
}
