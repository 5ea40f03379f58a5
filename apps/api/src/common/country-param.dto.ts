import { ApiProperty } from '@nestjs/swagger';
import { IsCountryName } from '@app/diseases';

export class CountryParamDto {
  @ApiProperty({
    example: 'France',
    minLength: 1,
    maxLength: 100,
    description: 'URL-encoded; matched after trimming, ignoring case',
  })
  @IsCountryName()
  country: string;
}
