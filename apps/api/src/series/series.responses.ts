import { ApiProperty } from '@nestjs/swagger';

export class RecordResponse {
  @ApiProperty({ example: 1234, type: 'integer' }) id: number;
  @ApiProperty({ example: '2021-03-15' }) date: string;
  @ApiProperty({ example: 'France' }) country: string;
  @ApiProperty({ example: 4078133, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 29975 }) new_cases: number;
  @ApiProperty({ example: 91170, type: 'integer' }) total_deaths: number;
  @ApiProperty({ example: 231 }) new_deaths: number;
}

export class TotalsResponse {
  @ApiProperty({ example: 676570149, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 6881802, type: 'integer' }) total_deaths: number;
}

export class CountrySummaryResponse {
  @ApiProperty({ example: 'France' }) country: string;
  @ApiProperty({ example: 1143, type: 'integer' }) records: number;
  @ApiProperty({ example: '2020-01-22' }) first_date: string;
  @ApiProperty({ example: '2023-03-09' }) last_date: string;
}

export class CountryStatsResponse extends CountrySummaryResponse {
  @ApiProperty({ example: 39866718, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 166176, type: 'integer' }) total_deaths: number;
  @ApiProperty({
    example: 28127,
    description: 'Sum of new_cases over the 7 days ending at last_date',
  })
  new_cases_7d: number;
  @ApiProperty({ example: 147 }) new_deaths_7d: number;
  @ApiProperty({
    example: 0.00417,
    nullable: true,
    description: 'total_deaths / total_cases; null when no cases',
  })
  case_fatality_rate: number | null;
}

export class TopCountryResponse {
  @ApiProperty({ example: 'United States' }) country: string;
  @ApiProperty({ example: '2023-11-14' }) date: string;
  @ApiProperty({ example: 31604, type: 'integer' }) total_cases: number;
  @ApiProperty({ example: 55, type: 'integer' }) total_deaths: number;
}

export class SeriesSummaryResponse extends TotalsResponse {
  @ApiProperty({ example: 116, type: 'integer' }) countries: number;
  @ApiProperty({ example: '2023-11-16', nullable: true, type: String }) last_date: string | null;
  @ApiProperty({ type: [TopCountryResponse] }) top_countries: TopCountryResponse[];
}

export class StatsSummaryResponse {
  @ApiProperty({ type: TotalsResponse }) covid: TotalsResponse;
  @ApiProperty({ type: TotalsResponse }) mpox: TotalsResponse;
}
