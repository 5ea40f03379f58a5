import { ApiProperty } from '@nestjs/swagger';

import { REGION_GROUPINGS, RegionGrouping } from '@app/countries';

/** The answers of `/regions` and `/population`, the tables the derived figures rest on. */
export class RegionMemberResponse {
  @ApiProperty({ example: 'Albania' }) country: string;
  @ApiProperty({ example: 'AL' }) iso2: string;
  @ApiProperty({ example: 'ALB' }) iso3: string;
}

export class RegionResponse {
  @ApiProperty({ example: 'Europe', description: 'The name `/series` answers it under' })
  name: string;
  @ApiProperty({
    example: 'OWID_EUR',
    description:
      'Its short code, accepted by `/series` as its name is (case ignored): OWID_WRL, the ' +
      "continents' OWID_AFR..., EU, AFRO, AMRO, EMRO, EURO, SEARO, WPRO",
  })
  code: string;
  @ApiProperty({ enum: REGION_GROUPINGS, example: 'continent' })
  grouping: RegionGrouping;
  @ApiProperty({
    type: [String],
    example: [],
    description: "Other names and codes `/series` accepts (WHO's newer codes: AFR, AMR...)",
  })
  aliases: string[];
  @ApiProperty({
    example:
      "Our World in Data's continents (owid/covid-19-data, scripts/input/owid/continents.csv), " +
      'the list its continent rows are summed over',
  })
  source: string;
  @ApiProperty({
    type: [String],
    example: [],
    description: "Where the membership knowingly differs from its source's",
  })
  deviations: string[];
  @ApiProperty({ type: [RegionMemberResponse], description: 'Member countries, by name' })
  countries: RegionMemberResponse[];
}

export class PopulationResponse {
  @ApiProperty({ example: 'France' }) country: string;
  @ApiProperty({ example: 'FRA' }) iso3: string;
  @ApiProperty({ example: 'FR', nullable: true, type: 'string' }) iso2: string | null;
  @ApiProperty({ example: 2020, type: 'integer' }) year: number;
  @ApiProperty({ example: 68147687, type: 'integer' }) population: number;
  @ApiProperty({
    example: 'population-owid-2020.csv',
    description: 'The table it came from (its `source` column, else its file name or URL)',
  })
  source: string;
}
