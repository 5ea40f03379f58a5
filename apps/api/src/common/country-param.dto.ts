import { ApiProperty } from '@nestjs/swagger';
import { IsCountryName } from '@app/series';

export class CountryParamDto {
  @ApiProperty({
    example: 'France',
    description: 'URL-encoded; matched after trimming, ignoring case',
  })
  @IsCountryName()
  country: string;
}
