import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIntegerFrom, toInteger } from '@app/diseases';

export class IdParamDto {
  @ApiProperty({ example: 71285, minimum: 1, maximum: Number.MAX_SAFE_INTEGER, type: 'integer' })
  @Transform(toInteger)
  @IsIntegerFrom(1)
  id: number;
}
