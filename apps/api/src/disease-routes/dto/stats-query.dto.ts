import { ApiProperty } from '@nestjs/swagger';
import { IsCountryName } from '@app/diseases';

export class StatsQueryDto {
  @ApiProperty({
    example: 'France',
    minLength: 1,
    maxLength: 100,
    description: 'Required; matched after trimming, ignoring case',
  })
  @IsCountryName()
  country: string;
}
